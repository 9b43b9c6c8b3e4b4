import type { Client } from '@opensearch-project/opensearch';
import { EngineError, SEARCH_TIMEOUT_MS, type SearchHit, type SearchResult } from '../search.ts';
import type { KeyKind } from './cuts.ts';
import type { Mark } from './marks.ts';
import type { PagePlanOptions, PageRequest } from './plan.ts';
import type { SortKey, SortOrder } from './sort.ts';

/**
 * What the orchestrator (read-page.ts) and its strategies share: the page they return,
 * the context of one deep read, and the bounds every round of it keeps.
 */

/** The rows of one page and the exact total of the query. */
export interface Page<T> {
  hits: SearchHit<T>[];
  total: number;
}

/** Sends an opening request: searches in one round trip, their answers in order. */
export type Opening<T> = (bodies: Record<string, unknown>[]) => Promise<SearchResult<T>[]>;

/**
 * Each engine call is bounded (services/engine/search.ts); a deep page makes a few
 * of them, so the page as a whole is bounded too: an engine that is merely slow
 * gives a 500 in seconds, not after every call has used its own timeout.
 */
export const PAGE_DEADLINE_MS = SEARCH_TIMEOUT_MS + 2000;

export function checkDeadline(deadline: number): void {
  if (Date.now() > deadline) throw new EngineError('page', 'timeout', `page: no answer within ${PAGE_DEADLINE_MS} ms`);
}

/**
 * What every round of one deep page read shares, passed as one value instead of a
 * row of positional arguments: where to read, the request, its effective order, how
 * each field key of that order is cut, how many rows the page holds and until when
 * the page may take.
 */
export interface PageRead {
  client: Client;
  index: string;
  req: PageRequest;
  /** The effective order (rules.ts holds its rules). */
  sort: readonly SortKey[];
  /** How each field key of `sort` is cut, in order (a score key has none). */
  kinds: readonly KeyKind[];
  /** The long order twins (string-cuts.ts) the index maps beside string keys, by key field. */
  twins: ReadonlySet<string>;
  /** Rows the page holds: the limit, or fewer at the end of the result. */
  size: number;
  options: PagePlanOptions;
  deadline: number;
  /** Keeps a position the page was read from, for the pages after it (marks.ts). */
  remember: (mark: Mark) => void;
}

/** Rounds of counting a selection may take before it is a bug, not bad luck. */
export const MAX_ROUNDS = 24;

/**
 * How many windows of documents a final search may sort between its two marks when it
 * skips further than skipMax: a from of thousands costs tens of milliseconds once the
 * documents between the marks reach a few windows, more than a round of counts.
 */
export const BOUNDED_MAX = 1;

/** A field key of the order (a score key is cut by select-score.ts). */
export interface FieldKey {
  field: string;
  order: SortOrder;
}
