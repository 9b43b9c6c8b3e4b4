import { isAscii } from './ascii.ts';
import type { FieldKind } from './field-kinds.ts';

/**
 * A saved search's Query DSL made into a tree the worker can evaluate over a batch of documents
 * (evaluate.ts), for the clauses whose answer it can compute exactly as the engine would: term,
 * terms, range and exists on keyword, number, scaled-float, strict-date and boolean fields,
 * `*word*` on a field of the contains_key normalizer, match_all, constant_score and bool. Every
 * other clause (match, multi_match, a normalizer the worker does not reproduce, a date with a
 * format or date math) is `unknown`: its documents are left to the engine's percolator. Each leaf
 * carries a key, so one batch computes a clause many searches share once.
 */

export type Bound = { value: number | string; inclusive: boolean };

export type Leaf =
  | { kind: 'term'; field: FieldKind; values: readonly (string | number | boolean)[]; caseInsensitive: boolean }
  | { kind: 'range'; field: FieldKind; lower?: Bound; upper?: Bound }
  | { kind: 'exists'; field: FieldKind }
  | { kind: 'contains'; field: FieldKind; needle: string };

export type Node =
  | { k: 'all' }
  | { k: 'none' }
  | { k: 'unknown' }
  | { k: 'leaf'; key: string; leaf: Leaf }
  | { k: 'and'; of: Node[] }
  | { k: 'or'; of: Node[] }
  | { k: 'not'; of: Node };

const UNKNOWN: Node = { k: 'unknown' };
type Dsl = Record<string, unknown>;

function isObject(x: unknown): x is Dsl {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The one key of a clause object ({term: {...}}), or undefined when it has several or none. */
function single(x: unknown): [string, unknown] | undefined {
  if (!isObject(x)) return undefined;
  const entries = Object.entries(x);
  return entries.length === 1 ? entries[0] : undefined;
}

function onlyKeys(x: Dsl, allowed: readonly string[]): boolean {
  return Object.keys(x).every((k) => allowed.includes(k));
}

function list(x: unknown): unknown[] {
  if (x === undefined) return [];
  return Array.isArray(x) ? x : [x];
}

function leaf(key: unknown, l: Leaf): Node {
  return { k: 'leaf', key: JSON.stringify(key), leaf: l };
}

/** A term's value as the field stores it, or undefined when the worker cannot be sure how the engine reads it. */
function termValue(field: FieldKind, v: unknown): string | number | boolean | undefined {
  switch (field.type) {
    case 'keyword':
      if (field.normalizer) return undefined;
      return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    case 'number': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case 'boolean':
      return v === true || v === 'true' ? true : v === false || v === 'false' ? false : undefined;
    default:
      return undefined;
  }
}

function compileTerm(fields: ReadonlyMap<string, FieldKind>, name: 'term' | 'terms', body: unknown): Node {
  const entries = isObject(body) ? Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name') : [];
  if (entries.length !== 1) return UNKNOWN;
  const [path, spec] = entries[0]!;
  const field = fields.get(path);
  if (!field) return UNKNOWN;
  let raw: unknown[];
  let caseInsensitive = false;
  if (name === 'terms') {
    if (!Array.isArray(spec)) return UNKNOWN;
    raw = spec;
  } else if (isObject(spec)) {
    if (!onlyKeys(spec, ['value', 'case_insensitive', 'boost', '_name'])) return UNKNOWN;
    raw = [spec.value];
    caseInsensitive = spec.case_insensitive === true;
  } else raw = [spec];
  if (caseInsensitive && field.type !== 'keyword') return UNKNOWN;
  const values = raw.map((v) => termValue(field, v));
  if (values.some((v) => v === undefined)) return UNKNOWN;
  const typed = values as (string | number | boolean)[];
  if (caseInsensitive && typed.some((v) => !isAscii(String(v)))) return UNKNOWN;
  return leaf({ terms: path, values: typed, caseInsensitive }, { kind: 'term', field, values: typed, caseInsensitive });
}

const STRICT_DATE = /^\d{4}-\d{2}-\d{2}$/;

function boundValue(field: FieldKind, v: unknown): number | string | undefined {
  if (field.type === 'date') return field.strictDate && typeof v === 'string' && STRICT_DATE.test(v) ? v : undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

function compileRange(fields: ReadonlyMap<string, FieldKind>, body: unknown): Node {
  const entries = isObject(body) ? Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name') : [];
  if (entries.length !== 1) return UNKNOWN;
  const [path, spec] = entries[0]!;
  const field = fields.get(path);
  if (!field || !isObject(spec) || !onlyKeys(spec, ['gte', 'gt', 'lte', 'lt', 'boost'])) return UNKNOWN;
  if (field.type !== 'number' && field.type !== 'scaled_float' && field.type !== 'date') return UNKNOWN;
  if ((spec.gte !== undefined && spec.gt !== undefined) || (spec.lte !== undefined && spec.lt !== undefined)) return UNKNOWN;
  const bound = (v: unknown, inclusive: boolean): Bound | undefined | null => {
    if (v === undefined || v === null) return undefined;
    const value = boundValue(field, v);
    return value === undefined ? null : { value, inclusive };
  };
  const lower = bound(spec.gte ?? spec.gt, spec.gte !== undefined);
  const upper = bound(spec.lte ?? spec.lt, spec.lte !== undefined);
  if (lower === null || upper === null) return UNKNOWN;
  return leaf({ range: path, lower, upper }, { kind: 'range', field, ...(lower ? { lower } : {}), ...(upper ? { upper } : {}) });
}

function compileExists(fields: ReadonlyMap<string, FieldKind>, body: unknown): Node {
  if (!isObject(body) || typeof body.field !== 'string' || !onlyKeys(body, ['field', 'boost', '_name'])) return UNKNOWN;
  const field = fields.get(body.field);
  // A text field's existence rests on what its analyzer makes of the value: the engine's to judge.
  if (!field || field.type === 'other') return UNKNOWN;
  return leaf({ exists: body.field }, { kind: 'exists', field });
}

/** `*word*` (letters and digits only: what containsKey leaves) on a contains_key field. */
function compileWildcard(fields: ReadonlyMap<string, FieldKind>, body: unknown): Node {
  const one = single(body);
  if (!one) return UNKNOWN;
  const [path, spec] = one;
  const field = fields.get(path);
  if (field?.type !== 'keyword' || field.normalizer !== 'contains_key') return UNKNOWN;
  const value = typeof spec === 'string' ? spec : isObject(spec) && onlyKeys(spec, ['value', 'boost']) ? spec.value : undefined;
  const m = typeof value === 'string' ? /^\*([a-z0-9]+)\*$/.exec(value) : null;
  if (!m) return UNKNOWN;
  return leaf({ contains: path, needle: m[1] }, { kind: 'contains', field, needle: m[1]! });
}

/** A whole number of should clauses that must match, or undefined when it is a form the worker does not read. */
function minimumShouldMatch(spec: unknown, shoulds: number, required: number): number | undefined {
  if (spec === undefined || spec === null) return shoulds > 0 && required === 0 ? 1 : 0;
  const n = typeof spec === 'number' ? spec : typeof spec === 'string' && /^\d+$/.test(spec) ? Number(spec) : Number.NaN;
  if (!Number.isInteger(n) || n < 0) return undefined;
  // The engine caps it at the number of should clauses.
  return Math.min(n, shoulds);
}

function compileBool(fields: ReadonlyMap<string, FieldKind>, body: unknown): Node {
  if (!isObject(body) || !onlyKeys(body, ['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost', '_name']))
    return UNKNOWN;
  const required = [...list(body.must), ...list(body.filter)].map((c) => compileQuery(fields, c));
  const shoulds = list(body.should).map((c) => compileQuery(fields, c));
  const excluded = list(body.must_not).map((c) => compileQuery(fields, c));
  const msm = minimumShouldMatch(body.minimum_should_match, shoulds.length, required.length);
  if (msm === undefined || msm > 1) return UNKNOWN;
  const parts = [...required];
  if (msm === 1) parts.push({ k: 'or', of: shoulds });
  if (excluded.length > 0) parts.push({ k: 'not', of: { k: 'or', of: excluded } });
  return { k: 'and', of: parts };
}

export function compileQuery(fields: ReadonlyMap<string, FieldKind>, clause: unknown): Node {
  const one = single(clause);
  if (!one) return UNKNOWN;
  const [name, body] = one;
  switch (name) {
    case 'match_all':
      return { k: 'all' };
    case 'match_none':
      return { k: 'none' };
    case 'term':
    case 'terms':
      return compileTerm(fields, name, body);
    case 'range':
      return compileRange(fields, body);
    case 'exists':
      return compileExists(fields, body);
    case 'wildcard':
      return compileWildcard(fields, body);
    case 'constant_score':
      return isObject(body) && onlyKeys(body, ['filter', 'boost', '_name']) ? compileQuery(fields, body.filter) : UNKNOWN;
    case 'bool':
      return compileBool(fields, body);
    default:
      return UNKNOWN;
  }
}
