import type { Cursor } from './cursor.ts';
import type { SortKey } from './sort.ts';

/**
 * Positions deep pages have already found, kept for the pages read after them.
 *
 * A deep page costs several engine round trips to place (select-field.ts): the total and
 * the first key's distribution, counted cuts, then the page itself. Each round trip costs
 * the API about as much CPU as a whole shallow page, and a client paging
 * through a deep result asks for the next page a few rows past the last. A mark says "this
 * many documents of this query come before this cursor, and this many before that later one";
 * a later page between the two is read in one msearch that also re-counts both (from-mark.ts),
 * so the page is exact even if the index changed since: a mark whose count no longer holds
 * is dropped with every other mark of its query, and the page is placed from scratch.
 *
 * Bounded: a query keeps up to a thousand marks (one order is read at many depths by many
 * clients, the unfiltered search most of all), and all queries together a fixed number, the
 * least recently used query going first, so memory stays flat (a few MB) however many distinct
 * queries page deep.
 */

/** A position in the order with the number of documents before it when it was counted. */
export interface Position {
  cursor: Cursor;
  before: number;
}

/** A position a page was read from, and the later one that page ended before: a page read from the mark must end before it too. */
export interface Mark extends Position {
  end: Position;
}

/** Queries remembered per process (one PagingCaches, caches.ts); the least recently used goes first. */
export const MARK_QUERIES = 512;
/** Marks per query; the oldest goes first. */
export const MARKS_PER_QUERY = 1024;
/** Marks of all queries together (a mark is a few hundred bytes); the least recently used query goes first. */
export const MARKS_MAX = 16_384;

export class PageMarks {
  private readonly byQuery = new Map<string, Mark[]>();
  private marks = 0;

  /** The key of one query in one order on one index (the fields fetched do not move rows). */
  static keyOf(index: string, query: unknown, sort: readonly SortKey[]): string {
    return JSON.stringify([index, query, sort]);
  }

  /** The latest mark at or before `offset` that a page at `offset` may be read from (`usable`). */
  nearest(key: string, offset: number, usable: (mark: Mark) => boolean): Mark | undefined {
    const marks = this.byQuery.get(key);
    if (!marks) return undefined;
    // Touched: the most recently used query is the last to be forgotten.
    this.byQuery.delete(key);
    this.byQuery.set(key, marks);
    let best: Mark | undefined;
    for (const m of marks) if (m.before <= offset && (!best || m.before > best.before) && usable(m)) best = m;
    return best;
  }

  remember(key: string, mark: Mark): void {
    const marks = this.byQuery.get(key) ?? [];
    this.byQuery.delete(key);
    this.byQuery.set(key, marks);
    if (marks.some((m) => m.before === mark.before)) return;
    marks.push(mark);
    this.marks += 1;
    if (marks.length > MARKS_PER_QUERY) {
      marks.shift();
      this.marks -= 1;
    }
    // The least recently used queries go until both bounds hold; the one just used stays.
    while (this.byQuery.size > MARK_QUERIES || (this.marks > MARKS_MAX && this.byQuery.size > 1))
      this.forget(this.byQuery.keys().next().value!);
  }

  /** A mark's count no longer held: the query's documents moved, so none of its marks is trusted. */
  forget(key: string): void {
    this.marks -= this.byQuery.get(key)?.length ?? 0;
    this.byQuery.delete(key);
  }

  get queries(): number {
    return this.byQuery.size;
  }

  /** Marks held, all queries together. */
  get size(): number {
    return this.marks;
  }
}
