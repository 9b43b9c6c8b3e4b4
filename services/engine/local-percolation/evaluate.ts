import { isAscii } from './ascii.ts';
import { containsKey } from '../../domain/contains-key.ts';
import { allBits, type Bits, count, emptyBits, isEmpty, ones, setBit } from './bits.ts';
import type { Bound, Leaf, Node } from './compile.ts';
import type { FieldKind } from './field-kinds.ts';
import { type AndPlan, andPlan, nodeKey } from './node-keys.ts';

/**
 * A compiled search over a batch of documents, in three values per document: `t`, the documents
 * it surely matches; `u`, those whose answer only the engine can give (a text clause, a value the
 * worker cannot judge as the engine would); every other document surely does not match. Bool
 * clauses combine them as three-valued logic does (an unknown clause and a false filter make
 * false; an unknown clause and a true one make unknown), so a search with a text clause leaves to
 * the engine only the documents its other filters let through.
 */
export interface Verdict {
  t: Bits;
  u: Bits;
}

/** One document's answer to a leaf: true, false, or undefined when only the engine can tell. */
type Judge = (value: unknown) => boolean | undefined;

/**
 * The documents of one percolation (their source as indexed), with what several searches share:
 * each distinct leaf is computed once, and a name field's distinct values are grouped so a
 * contains clause tests each name once, not each document.
 */
export class DocBatch {
  readonly n: number;
  /** Every verdict computed, by node key (node-keys.ts): leaves, bool nodes and the prefixes of conjunctions. */
  private readonly verdicts = new Map<string, Verdict>();
  private readonly distinct = new Map<string, Map<unknown, number[]>>();
  private readonly odd = new Map<string, number[]>();
  private readonly keyed = new Map<string, [string | false | undefined, number[]][]>();
  private readonly ordered = new Map<string, Ordered>();
  private readonly everything: Bits;
  private readonly nothing: Bits;
  private readonly ALL: Verdict;
  private readonly NONE: Verdict;
  private readonly UNKNOWN: Verdict;
  /** Where the bool nodes' bitsets are cut from (see bits()). */
  private slab = new Uint32Array(0);
  private used = 0;

  constructor(readonly docs: readonly Record<string, unknown>[]) {
    this.n = docs.length;
    this.everything = allBits(this.n);
    this.nothing = emptyBits(this.n);
    this.ALL = { t: this.everything, u: this.nothing };
    this.NONE = { t: this.nothing, u: this.nothing };
    this.UNKNOWN = { t: this.nothing, u: this.everything };
  }

  /** The verdict of a node; shared with every node of the same key, so never to be written to. */
  evaluate(node: Node): Verdict {
    switch (node.k) {
      case 'all':
        return this.ALL;
      case 'none':
        return this.NONE;
      case 'unknown':
        return this.UNKNOWN;
      case 'and':
        return this.and(node);
    }
    const key = node.k === 'leaf' ? node.key : nodeKey(node);
    let v = this.verdicts.get(key);
    if (!v) {
      v = node.k === 'leaf' ? this.leaf(node.leaf) : node.k === 'or' ? this.or(node.of) : this.not(node.of);
      this.verdicts.set(key, v);
    }
    return v;
  }

  private and(node: Extract<Node, { k: 'and' }>): Verdict {
    const plan = andPlan(node);
    return this.prefix(plan, plan.parts.length - 1);
  }

  /** The conjunction of parts[0..last], from the longest prefix already computed, one part at a time, each prefix kept. */
  private prefix(plan: AndPlan, last: number): Verdict {
    const { parts, prefixes } = plan;
    let i = last;
    let found: Verdict | undefined;
    for (; i >= 0; i--) {
      found = this.verdicts.get(prefixes[i]!);
      if (found) break;
    }
    let acc = found ?? this.ALL;
    for (let j = i + 1; j <= last; j++) {
      if (acc !== this.NONE) acc = this.both(acc, this.evaluate(parts[j]!));
      this.verdicts.set(prefixes[j]!, acc);
    }
    return acc;
  }

  /**
   * How many documents a node surely matches, and whether any is left to the engine: a
   * conjunction's last part is combined with the rest in one pass that keeps nothing, since most
   * searches differ from every other only there (their own face floor or year).
   */
  tally(node: Node): { count: number; undecided: boolean } {
    if (node.k !== 'and' || node.of.length === 0) {
      const v = this.evaluate(node);
      return { count: count(v.t), undecided: !isEmpty(v.u) };
    }
    const plan = andPlan(node);
    const n = plan.parts.length;
    const whole = this.verdicts.get(plan.prefixes[n - 1]!);
    const head = whole ?? (n === 1 ? this.ALL : this.prefix(plan, n - 2));
    const tail = whole ? this.ALL : this.evaluate(plan.parts[n - 1]!);
    let sure = 0;
    let open = 0;
    for (let i = 0; i < head.t.length; i++) {
      const t = head.t[i]! & tail.t[i]!;
      sure += ones(t);
      open |= (head.t[i]! | head.u[i]!) & (tail.t[i]! | tail.u[i]!) & ~t;
    }
    return { count: sure, undecided: open !== 0 };
  }

  /**
   * A zeroed bitset of the batch, cut from a slab: a batch judged against thousands of searches
   * makes tens of thousands of them, and each its own ArrayBuffer kept the collector busy with
   * their backing stores. A caller keeping one beyond the batch copies it (it holds its slab).
   */
  private bits(): Bits {
    const words = this.everything.length;
    if (this.used + words > this.slab.length) {
      this.slab = new Uint32Array(Math.max(SLAB_WORDS, words));
      this.used = 0;
    }
    const out = this.slab.subarray(this.used, this.used + words);
    this.used += words;
    return out;
  }

  /** a and b in three values, in one pass; NONE itself when nothing can match. */
  private both(a: Verdict, b: Verdict): Verdict {
    if (b === this.ALL) return a;
    if (a === this.ALL) return b;
    if (b === this.NONE) return this.NONE;
    const t = this.bits();
    const u = this.bits();
    let any = 0;
    for (let i = 0; i < t.length; i++) {
      const at = a.t[i]!;
      const bt = b.t[i]!;
      const tt = at & bt;
      const maybe = (at | a.u[i]!) & (bt | b.u[i]!);
      t[i] = tt;
      u[i] = maybe & ~tt;
      any |= maybe;
    }
    return any === 0 ? this.NONE : { t, u };
  }

  private or(parts: readonly Node[]): Verdict {
    const t = this.bits();
    const u = this.bits();
    for (const part of parts) {
      const v = this.evaluate(part);
      for (let i = 0; i < t.length; i++) {
        t[i]! |= v.t[i]!;
        u[i]! |= v.u[i]!;
      }
    }
    for (let i = 0; i < t.length; i++) u[i]! &= ~t[i]!;
    return { t, u };
  }

  private not(part: Node): Verdict {
    const v = this.evaluate(part);
    const t = this.bits();
    for (let i = 0; i < t.length; i++) t[i] = this.everything[i]! & ~(v.t[i]! | v.u[i]!);
    return { t, u: v.u };
  }

  private leaf(l: Leaf): Verdict {
    if (l.kind === 'contains') return this.contains(l.field, l.needle);
    if (l.kind === 'term' && l.field.type === 'keyword' && !l.caseInsensitive) return this.keywordTerm(l.field, l.values);
    if (l.kind === 'range' && (l.field.type === 'scaled_float' || l.field.type === 'number'))
      return this.numericRange(l.field, l.lower, l.upper);
    const judge = judgeOf(l);
    const t = emptyBits(this.n);
    const u = emptyBits(this.n);
    const source = l.field.source;
    for (let i = 0; i < this.n; i++) {
      const answer = judge(this.docs[i]![source]);
      if (answer === true) setBit(t, i);
      else if (answer === undefined) setBit(u, i);
    }
    return { t, u };
  }

  /**
   * A range on a number or scaled float by binary search in the batch's values sorted once: a
   * first load meets thousands of searches each with its own face range, and a pass over every
   * document per range costs a batch's length each time. The keys are the values as the engine
   * indexes them (a scaled float's Math.round(value * factor), its range's ends scaled by
   * scaledRange; a number's ends as compiled, always numbers); a value the engine alone can judge
   * (not a finite number, a fraction in an integer field) is unknown whatever the range.
   */
  private numericRange(field: Extract<FieldKind, { type: 'number' | 'scaled_float' }>, lower?: Bound, upper?: Bound): Verdict {
    const { keys, at, odd } = this.orderedNumbers(field);
    let from = 0;
    let to = keys.length;
    if (field.type === 'scaled_float') {
      const { lo, hi } = scaledRange(field.factor, lower, upper);
      from = firstAtLeast(keys, lo, true);
      to = firstAtLeast(keys, hi, false);
    } else {
      if (lower) from = firstAtLeast(keys, lower.value as number, lower.inclusive);
      if (upper) to = firstAtLeast(keys, upper.value as number, !upper.inclusive);
    }
    const t = emptyBits(this.n);
    for (let j = from; j < to; j++) setBit(t, at[j]!);
    const u = emptyBits(this.n);
    for (const i of odd) setBit(u, i);
    return { t, u };
  }

  private orderedNumbers(field: Extract<FieldKind, { type: 'number' | 'scaled_float' }>): Ordered {
    const name = field.type === 'scaled_float' ? `${field.source}*${field.factor}` : field.source;
    let ordered = this.ordered.get(name);
    if (!ordered) {
      const values: number[] = [];
      const positions: number[] = [];
      const odd: number[] = [];
      for (let i = 0; i < this.n; i++) {
        const value = this.docs[i]![field.source];
        if (missing(value)) continue;
        if (typeof value !== 'number' || !Number.isFinite(value)) odd.push(i);
        else if (field.type === 'scaled_float') {
          values.push(Math.round(value * field.factor));
          positions.push(i);
        } else if (field.integer && !Number.isInteger(value)) odd.push(i);
        else {
          values.push(value);
          positions.push(i);
        }
      }
      const order = Int32Array.from(positions.keys()).sort((a, b) => values[a]! - values[b]!);
      ordered = {
        keys: Float64Array.from(order, (j) => values[j]!),
        at: Int32Array.from(order, (j) => positions[j]!),
        odd,
      };
      this.ordered.set(name, ordered);
    }
    return ordered;
  }

  /** Documents by the distinct values of a field, so a test per name serves every document bearing it. */
  private byValue(source: string): Map<unknown, number[]> {
    let groups = this.distinct.get(source);
    if (!groups) {
      groups = new Map();
      for (let i = 0; i < this.n; i++) {
        const value = this.docs[i]![source];
        const docs = groups.get(value);
        if (docs) docs.push(i);
        else groups.set(value, [i]);
      }
      this.distinct.set(source, groups);
    }
    return groups;
  }

  /**
   * A keyword term by lookup: the documents holding each wanted value, and those holding something
   * other than a string (the engine's to judge). Free-text searches carry exact certificate-number
   * and parcel-id terms, hundreds of distinct ones a batch, each of which a pass over every
   * document would cost a batch's length.
   */
  private keywordTerm(field: FieldKind, values: readonly (string | number | boolean)[]): Verdict {
    const groups = this.byValue(field.source);
    const t = emptyBits(this.n);
    for (const value of values) {
      const wanted = String(value);
      if (!indexedKeyword(field, wanted)) continue;
      for (const i of groups.get(wanted) ?? []) setBit(t, i);
    }
    const u = emptyBits(this.n);
    for (const i of this.notStrings(field.source)) setBit(u, i);
    return { t, u };
  }

  /** The documents whose value of a field is present but not a string (an array, a number, an object). */
  private notStrings(source: string): number[] {
    let docs = this.odd.get(source);
    if (!docs) {
      docs = [];
      for (const [value, holders] of this.byValue(source)) if (!missing(value) && typeof value !== 'string') docs.push(...holders);
      this.odd.set(source, docs);
    }
    return docs;
  }

  private contains(field: FieldKind, needle: string): Verdict {
    const t = emptyBits(this.n);
    const u = emptyBits(this.n);
    for (const [key, docs] of this.containsKeys(field)) {
      if (key === false || (key !== undefined && !key.includes(needle))) continue;
      const target = key === undefined ? u : t;
      for (const i of docs) setBit(target, i);
    }
    return { t, u };
  }

  /**
   * Each distinct value of a contains field as the engine indexes it (its contains key), with its
   * documents: false where nothing is indexed, undefined where only the engine can tell. Kept per
   * batch, since a batch meets a holder search per distinct needle and each would key every name.
   */
  private containsKeys(field: FieldKind): [string | false | undefined, number[]][] {
    let keyed = this.keyed.get(field.source);
    if (!keyed) {
      const ignoreAbove = field.type === 'keyword' ? field.ignoreAbove : undefined;
      keyed = [...this.byValue(field.source)].map(([value, docs]) => {
        if (value === undefined || value === null) return [false, docs];
        if (typeof value !== 'string' || !isAscii(value)) return [undefined, docs];
        if (ignoreAbove !== undefined && value.length > ignoreAbove) return [false, docs];
        return [containsKey(value), docs];
      });
      this.keyed.set(field.source, keyed);
    }
    return keyed;
  }
}

/** Words a slab holds: 256 KB, a few hundred bitsets of a 4,096-document batch. */
const SLAB_WORDS = 64 * 1024;

/** A number field's documents of one batch sorted by their indexed value; `odd`, those only the engine can judge. */
interface Ordered {
  keys: Float64Array;
  at: Int32Array;
  odd: number[];
}

/** The first position whose key is at least `x` (`inclusive`) or above it; keys.length when none. */
function firstAtLeast(keys: Float64Array, x: number, inclusive: boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inclusive ? keys[mid]! < x : keys[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function missing(value: unknown): boolean {
  return value === undefined || value === null;
}

/** A value longer than ignore_above is not indexed: no term, range or exists finds it. */
function indexedKeyword(field: FieldKind, value: string): boolean {
  return field.type !== 'keyword' || field.ignoreAbove === undefined || value.length <= field.ignoreAbove;
}

function judgeOf(l: Exclude<Leaf, { kind: 'contains' }>): Judge {
  const field = l.field;
  switch (l.kind) {
    case 'term':
      return termJudge(field, l.values, l.caseInsensitive);
    case 'range':
      return rangeJudge(field, l.lower, l.upper);
    case 'exists':
      return (value) => {
        if (missing(value)) return false;
        if (Array.isArray(value) || typeof value === 'object') return undefined;
        return typeof value === 'string' ? indexedKeyword(field, value) : true;
      };
  }
}

function termJudge(field: FieldKind, values: readonly (string | number | boolean)[], caseInsensitive: boolean): Judge {
  if (field.type === 'keyword') {
    const wanted = new Set(values.map((v) => (caseInsensitive ? String(v).toLowerCase() : String(v))));
    return (value) => {
      if (missing(value)) return false;
      if (typeof value !== 'string') return undefined;
      if (!indexedKeyword(field, value)) return false;
      if (!caseInsensitive) return wanted.has(value);
      return isAscii(value) ? wanted.has(value.toLowerCase()) : undefined;
    };
  }
  if (field.type === 'number') {
    const wanted = new Set(values as number[]);
    return (value) => {
      if (missing(value)) return false;
      if (typeof value !== 'number' || (field.integer && !Number.isInteger(value))) return undefined;
      return wanted.has(value);
    };
  }
  if (field.type === 'boolean') {
    const wanted = new Set(values as boolean[]);
    return (value) => (missing(value) ? false : typeof value === 'boolean' ? wanted.has(value) : undefined);
  }
  return () => undefined;
}

/**
 * A scaled float is indexed as the long Math.round(value * factor), and a range's ends are scaled
 * the same way, an exclusive end then moved one step inward (as OpenSearch 3 does: measured, a
 * face of 300.00 is within `lte 299.999`, since that end rounds to 30000). The worker scales both
 * with the same double arithmetic, so a bound between two cents selects what the engine selects.
 */
function scaledRange(factor: number, lower?: Bound, upper?: Bound): { lo: number; hi: number } {
  let lo = Number.NEGATIVE_INFINITY;
  let hi = Number.POSITIVE_INFINITY;
  if (lower) lo = Math.round((lower.value as number) * factor) + (lower.inclusive ? 0 : 1);
  if (upper) hi = Math.round((upper.value as number) * factor) - (upper.inclusive ? 0 : 1);
  return { lo, hi };
}

function rangeJudge(field: FieldKind, lower?: Bound, upper?: Bound): Judge {
  // Numbers and scaled floats are judged from sorted values (DocBatch.numericRange).
  if (field.type !== 'date') return () => undefined;
  const inRange = (v: string) =>
    (!lower || (lower.inclusive ? v >= lower.value : v > lower.value)) &&
    (!upper || (upper.inclusive ? v <= upper.value : v < upper.value));
  // Strict dates of one form compare as text, day by day, as the engine compares their instants
  // (an inclusive upper day reaches its last millisecond, an exclusive one stops before it).
  return (value) => {
    if (missing(value)) return false;
    return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? inRange(value) : undefined;
  };
}
