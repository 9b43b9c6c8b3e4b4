import { type Bits, countBoth, isEmpty, setBit } from './bits.ts';
import { DocBatch } from './evaluate.ts';
import { type CompiledSearch, meetsScope } from './stored-searches.ts';
import { sourcesOf } from './node-keys.ts';

/**
 * A first load's count for each saved search (saved_search.matches_loaded), taken by the worker
 * from the documents as it reads them, batch by batch:
 *
 * - a search it can judge whole is counted on the spot;
 * - a search with free text (`bool { must: [text], filter }`) has its filters judged here and the
 *   documents they let through kept, per batch, as a bitset; once the load is searchable the engine
 *   says which documents of the county and year each distinct text matches (text-matches.ts), and
 *   the count is the documents in both (complete());
 * - any other search, or one whose filters meet a value only the engine can judge, is counted by
 *   the engine over the county and year (`engine`), with its own query.
 */

/** Documents judged together: a multiple of 32, so a batch's bitset is a whole run of the file's. */
const LOAD_BATCH = 4096;

interface TextSearch {
  search: CompiledSearch;
  /** The batches in which its filters let documents through: batch number -> those documents. */
  through: Map<number, Bits>;
}

export interface LoadCounts {
  /** Counts the worker took whole (searches matching none left out). */
  counts: Map<string, number>;
  /** Searches with text whose filters let some document through, by text key. */
  texts: Map<string, { clause: Record<string, unknown>; searches: TextSearch[] }>;
  /** Searches only the engine can count. */
  engine: CompiledSearch[];
  /** The documents' ids in the order read: a document's position is its bit. */
  ids: string[];
}

export class LoadCounter {
  private readonly searches: CompiledSearch[];
  private readonly counts = new Map<string, number>();
  private readonly texts = new Map<string, TextSearch>();
  private readonly engine = new Map<string, CompiledSearch>();
  private readonly ids: string[] = [];
  private batch: Record<string, unknown>[] = [];
  private batches = 0;
  /** Time spent judging, in ms (the worker's per-file timings). */
  spentMs = 0;
  private readonly scope: { counties: string[]; taxYears: number[] };

  /** The fields any search reads (and the status, for the scope): all a batch keeps of a document. */
  private readonly fields: string[];

  constructor(searches: readonly CompiledSearch[], scope: { countySlug: string; taxYear: number }) {
    this.scope = { counties: [scope.countySlug], taxYears: [scope.taxYear] };
    this.searches = searches.filter((s) => meetsScope(s, this.scope));
    this.fields = [
      ...new Set(['status', ...this.searches.flatMap((s) => [...sourcesOf(s.node), ...(s.text ? sourcesOf(s.text.rest) : [])])]),
    ];
  }

  /**
   * One more document of the load, as it will be indexed. A batch holds only the fields the
   * searches read: whole documents held for 4,096 rows outlived the young generation, and the
   * collector then moved a million of them.
   */
  add(doc: Record<string, unknown>): void {
    const kept: Record<string, unknown> = {};
    for (const f of this.fields) if (f in doc) kept[f] = doc[f];
    this.batch.push(kept);
    this.ids.push(doc.id as string);
    if (this.batch.length === LOAD_BATCH) this.judge();
  }

  /** Every document added: the counts and what is left to the engine. */
  finish(): LoadCounts {
    if (this.batch.length > 0) this.judge();
    const texts: LoadCounts['texts'] = new Map();
    for (const t of this.texts.values()) {
      if (t.through.size === 0) continue;
      const { clause, key } = t.search.text!;
      const group = texts.get(key) ?? { clause, searches: [] };
      texts.set(key, group);
      group.searches.push(t);
    }
    return { counts: this.counts, texts, engine: [...this.engine.values()], ids: this.ids };
  }

  private judge(): void {
    const started = performance.now();
    const docs = new DocBatch(this.batch);
    const statuses = [...new Set(this.batch.map((d) => d.status as string))];
    const at = this.batches++;
    // The text searches' filters are kept past the batch: copied once each, out of the batch's slab.
    const kept = new Map<Bits, Bits>();
    for (const s of this.searches) {
      // Counties and years were met once for the load; a batch's statuses vary.
      if (this.engine.has(s.id) || !namesAny(s.statuses, statuses)) continue;
      if (!s.text) {
        const { count, undecided } = docs.tally(s.node);
        if (undecided) this.leaveToEngine(s);
        else if (count > 0) this.counts.set(s.id, (this.counts.get(s.id) ?? 0) + count);
        continue;
      }
      const v = docs.evaluate(s.text.rest);
      if (!isEmpty(v.u)) {
        this.leaveToEngine(s);
        continue;
      }
      if (isEmpty(v.t)) continue;
      let t = this.texts.get(s.id);
      if (!t) {
        t = { search: s, through: new Map() };
        this.texts.set(s.id, t);
      }
      let bits = kept.get(v.t);
      if (!bits) {
        bits = v.t.slice();
        kept.set(v.t, bits);
      }
      t.through.set(at, bits);
    }
    this.batch = [];
    this.spentMs += performance.now() - started;
  }

  private leaveToEngine(s: CompiledSearch): void {
    this.engine.set(s.id, s);
    this.counts.delete(s.id);
    this.texts.delete(s.id);
  }
}

/**
 * The text searches' counts, from the ids each text matches in the county and year: each search's
 * documents let through by its filters and matched by its text. Ids not of this load (a document
 * of the county and year written by another job meanwhile) are not its documents.
 */
export function countTextSearches(loaded: LoadCounts, matched: ReadonlyMap<string, readonly string[]>): Map<string, number> {
  const out = new Map<string, number>();
  const position = new Map<string, number>();
  for (const [i, id] of loaded.ids.entries()) position.set(id, i);
  const words = (loaded.ids.length + 31) >>> 5;
  for (const [key, group] of loaded.texts) {
    const text = new Uint32Array(words);
    for (const id of matched.get(key) ?? []) {
      const i = position.get(id);
      if (i !== undefined) setBit(text, i);
    }
    for (const { search, through } of group.searches) {
      let n = 0;
      for (const [at, bits] of through) n += countBoth(bits, text, at * (LOAD_BATCH >>> 5));
      if (n > 0) out.set(search.id, n);
    }
  }
  return out;
}

/** Whether a search naming these statuses (none: any) can match a batch holding those. */
function namesAny(named: ReadonlySet<string> | undefined, present: readonly string[]): boolean {
  if (!named) return true;
  for (const v of present) if (named.has(v)) return true;
  return false;
}
