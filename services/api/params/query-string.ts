import type { z } from 'zod';
import type { ParamIssue } from '../errors.ts';

/**
 * Turns a raw query string (every value a string, repeated keys arrays) into the
 * native JSON values the parameter schemas take, so REST and MCP validate with
 * one schema: REST comes through here, MCP passes native values straight in.
 *
 * What the query string adds on top of the schema: a multi-value parameter may
 * be repeated or comma-separated; a single-valued one given twice is an error
 * (we never guess which one was meant); an unknown name is an error (a typo must
 * never silently widen a search).
 */

export type RawQuery = Record<string, string | string[] | undefined>;
type Kind = 'string' | 'number' | 'boolean' | { array: 'string' | 'number' | 'boolean' };

/** Set by the query-string parser when a value's percent-encoding is broken. */
export const MALFORMED = Symbol('malformed query parameters');
export type ParsedQuery = RawQuery & { [MALFORMED]?: string[] };

function defOf(schema: z.ZodType): { type: string; [k: string]: unknown } {
  return (schema as unknown as { _zod: { def: { type: string; [k: string]: unknown } } })._zod.def;
}

/** The value kind a parameter's schema takes, looking through optional, default and refinements. */
export function kindOf(schema: z.ZodType): Kind {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault')
      s = def.innerType as z.ZodType;
    else if (def.type === 'pipe') s = def.in as z.ZodType;
    else if (def.type === 'array') {
      const inner = kindOf(def.element as z.ZodType);
      if (typeof inner !== 'string') throw new Error('arrays of arrays are not query parameters');
      return { array: inner };
    } else if (def.type === 'number' || def.type === 'int') return 'number';
    else if (def.type === 'boolean') return 'boolean';
    else return 'string';
  }
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

function scalar(kind: 'string' | 'number' | 'boolean', text: string): unknown {
  if (kind === 'number') return NUMBER.test(text) ? Number(text) : text;
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

export function coerceQuery(
  shape: Record<string, z.ZodType>,
  raw: ParsedQuery,
): { value: Record<string, unknown>; issues: ParamIssue[] } {
  const issues: ParamIssue[] = [];
  const value: Record<string, unknown> = {};
  for (const parameter of raw[MALFORMED] ?? [])
    issues.push({ parameter, message: 'malformed percent-encoding in the query string' });
  const known = Object.keys(shape);
  for (const [name, given] of Object.entries(raw)) {
    if (given === undefined) continue;
    const schema = shape[name];
    if (!schema) {
      issues.push({ parameter: name, message: unknownMessage(name, known) });
      continue;
    }
    const kind = kindOf(schema);
    const values = Array.isArray(given) ? given : [given];
    if (typeof kind === 'string') {
      if (values.length > 1) {
        issues.push({ parameter: name, message: 'given more than once; this parameter takes one value' });
        continue;
      }
      value[name] = scalar(kind, values[0]!);
    } else {
      const parts = values.flatMap((v) => v.split(',')).map((v) => v.trim());
      if (parts.some((p) => p === '')) {
        issues.push({ parameter: name, message: 'has an empty value (check for a stray comma)' });
        continue;
      }
      value[name] = parts.map((p) => scalar(kind.array, p));
    }
  }
  return { value, issues };
}

function unknownMessage(name: string, known: string[]): string {
  const close = known.find((k) => editDistance(k, name.toLowerCase()) <= 2);
  const accepted = known.length > 0 ? `accepted: ${known.join(', ')}` : 'this endpoint takes no parameters';
  return `unknown parameter${close ? ` (did you mean ${close}?)` : ''}; ${accepted}`;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

/** zod's issues, one per parameter and problem, with messages a person can act on. */
export function zodIssues(error: z.ZodError): ParamIssue[] {
  return error.issues.flatMap((issue) => {
    // Native input (MCP) reaches the strict schema with unknown names still in it: name each one.
    if (issue.code === 'unrecognized_keys')
      return issue.keys.map((key) => ({ parameter: key, message: 'unknown parameter' }));
    return [{ parameter: issue.path.length > 0 ? String(issue.path[0]) : 'parameters', message: issue.message }];
  });
}

/**
 * Decodes a query string strictly: '+' is a space, a broken %-sequence is not
 * guessed at but reported (by parameter name) for the validator to turn into a 400.
 */
export function parseQueryString(text: string): ParsedQuery {
  const out: ParsedQuery = {};
  const malformed: string[] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const name = decode(rawName);
    const val = decode(rawValue);
    if (name === null || val === null) {
      malformed.push(name ?? rawName);
      continue;
    }
    const prev = out[name];
    out[name] = prev === undefined ? val : Array.isArray(prev) ? [...prev, val] : [prev, val];
  }
  if (malformed.length > 0) Object.defineProperty(out, MALFORMED, { value: malformed, enumerable: false });
  return out;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
