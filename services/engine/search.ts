import type { Client } from '@opensearch-project/opensearch';

/**
 * The only way the API reads OpenSearch. Every call is bounded (the engine's own
 * timeout plus the client's request timeout), and every failure becomes one typed
 * EngineError, so an engine that is down, hung or refusing a query is a 500 to the
 * client and never leaks the engine's message.
 */

/** A search longer than this is a failure for an interactive API; the client retries. */
export const SEARCH_TIMEOUT_MS = 4000;

export class EngineError extends Error {
  override name = 'EngineError';
  constructor(
    readonly operation: string,
    readonly reason: 'timeout' | 'unavailable' | 'refused',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A hit as our searches return it: filter_path (below) leaves nothing else in the answer. */
export interface SearchHit<T> {
  _id: string;
  _source: T;
  sort?: unknown[];
}

export interface SearchResult<T> {
  hits: SearchHit<T>[];
  total: number;
  aggregations?: Record<string, unknown>;
}

const requestOptions = { requestTimeout: SEARCH_TIMEOUT_MS, maxRetries: 0 } as const;

/**
 * The parts of a search answer we read. The engine leaves out the rest (took, _shards,
 * max_score, and each hit's _index and _score: about a tenth of a page of certificates),
 * so there is less to read and parse on every request (issue 19 item 4). A part that is
 * empty is left out too: an answer with no hits has no hits.hits, and one that counted
 * nothing (track_total_hits: false, no hits) has no hits at all.
 */
const HIT_PARTS = ['hits.total', 'hits.hits._id', 'hits.hits._source', 'hits.hits.sort'];
const SEARCH_FILTER = ['timed_out', ...HIT_PARTS, 'aggregations'];
const MSEARCH_FILTER = ['responses.error', 'responses.timed_out', ...HIT_PARTS.map((p) => `responses.${p}`), 'responses.aggregations'];
const GET_FILTER = ['found', '_source'];

/**
 * A request that could not connect (refused, reset before an answer) never reached a node, so it
 * is sent once more: the client marked that node dead and picks another of OPENSEARCH_URL's nodes
 * (a cluster losing a node keeps answering, issue 22 item 5). A timeout is not repeated: the node
 * may still be working on it, and a second wait would double an interactive request's time.
 */
async function failover<R>(send: () => Promise<R>): Promise<R> {
  try {
    return await send();
  } catch (err) {
    if ((err as { name?: string })?.name !== 'ConnectionError') throw err;
    return send();
  }
}

type Total = number | { value: number } | undefined;
const totalOf = (total: Total) => (typeof total === 'number' ? total : (total?.value ?? 0));

function classify(operation: string, err: unknown): EngineError {
  const e = err as { name?: string; meta?: { statusCode?: number } };
  if (e?.name === 'TimeoutError') return new EngineError(operation, 'timeout', `${operation}: no answer within ${SEARCH_TIMEOUT_MS} ms`, { cause: err });
  if (e?.name === 'ConnectionError' || e?.name === 'NoLivingConnectionsError')
    return new EngineError(operation, 'unavailable', `${operation}: engine unavailable`, { cause: err });
  return new EngineError(operation, 'refused', `${operation}: engine refused the request (status ${e?.meta?.statusCode ?? 'none'})`, {
    cause: err,
  });
}

export async function search<T>(client: Client, index: string, body: Record<string, unknown>): Promise<SearchResult<T>> {
  try {
    const res = await failover(() =>
      client.search(
        { index, ignore_unavailable: true, filter_path: SEARCH_FILTER, body: { timeout: `${SEARCH_TIMEOUT_MS - 500}ms`, ...body } as never },
        requestOptions,
      ),
    );
    const hits = res.body.hits as { total?: Total; hits?: SearchHit<T>[] } | undefined;
    if (res.body.timed_out) throw new EngineError('search', 'timeout', 'search: the engine timed out and returned partial results');
    return {
      hits: hits?.hits ?? [],
      total: totalOf(hits?.total),
      aggregations: res.body.aggregations as Record<string, unknown> | undefined,
    };
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw classify('search', err);
  }
}

interface MsearchItem<T> {
  error?: unknown;
  timed_out?: boolean;
  hits?: { total?: Total; hits?: SearchHit<T>[] };
  aggregations?: Record<string, unknown>;
}

/** Several searches in one round trip; each answer in the order asked. */
export async function multiSearch<T>(client: Client, index: string, bodies: Record<string, unknown>[]): Promise<SearchResult<T>[]> {
  try {
    const lines = bodies.flatMap((body) => [{ index, ignore_unavailable: true }, { timeout: `${SEARCH_TIMEOUT_MS - 500}ms`, ...body }]);
    const res = await failover(() => client.msearch({ filter_path: MSEARCH_FILTER, body: lines as never }, requestOptions));
    return (res.body.responses as unknown as MsearchItem<T>[]).map((r) => {
      if (r.error || r.timed_out) throw new EngineError('msearch', r.timed_out ? 'timeout' : 'refused', 'msearch: one search failed');
      return { hits: r.hits?.hits ?? [], total: totalOf(r.hits?.total), aggregations: r.aggregations };
    });
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw classify('msearch', err);
  }
}

export async function count(client: Client, index: string, query?: Record<string, unknown>): Promise<number> {
  try {
    const res = await failover(() => client.count({ index, ignore_unavailable: true, body: query ? ({ query } as never) : undefined }, requestOptions));
    return res.body.count;
  } catch (err) {
    throw classify('count', err);
  }
}

/** Mapped types of some fields of an index (field caps): what the page plan may cut on. */
export async function fieldTypes(client: Client, index: string, fields: readonly string[]): Promise<Record<string, string>> {
  try {
    const res = await failover(() => client.fieldCaps({ index, fields: fields.join(','), ignore_unavailable: true }, requestOptions));
    const caps = (res.body as { fields?: Record<string, Record<string, unknown>> }).fields ?? {};
    return Object.fromEntries(Object.entries(caps).map(([name, byType]) => [name, Object.keys(byType).join(',')]));
  } catch (err) {
    throw classify('field_caps', err);
  }
}

/** One document by id, or null; a missing index is "no document", not an error. */
export async function getById<T>(client: Client, index: string, id: string, source?: readonly string[]): Promise<T | null> {
  try {
    const res = await failover(() =>
      client.get({ index, id, filter_path: GET_FILTER, ...(source ? { _source_includes: [...source] } : {}) }, { ...requestOptions, ignore: [404] }),
    );
    const body = res.body as { found?: boolean; _source?: T };
    return body.found ? (body._source as T) : null;
  } catch (err) {
    throw classify('get', err);
  }
}
