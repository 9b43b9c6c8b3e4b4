import { randomUUID } from 'node:crypto';
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
  /** Only when the body asks for docvalue_fields (or fields): each field's values. */
  fields?: Record<string, unknown[]>;
  sort?: unknown[];
}

export interface SearchResult<T> {
  hits: SearchHit<T>[];
  total: number;
  aggregations?: Record<string, unknown>;
}

const requestOptions = { requestTimeout: SEARCH_TIMEOUT_MS, maxRetries: 0 } as const;

/**
 * A search that times out must stop costing the engine, not only the API: a client-side
 * timeout alone leaves the engine computing an answer nobody reads (and the body's `timeout`
 * only stops shards between segments, returning partial results). So every search and
 * multi-search carries:
 *  - `cancel_after_time_interval`: the engine cancels its own task (and its shard tasks)
 *    after that long, even if the API process is gone;
 *  - an `X-Opaque-Id` of its own, so that when the client gives up first (a hung node, a
 *    cancellation still on its way) the API cancels that task by id before it answers.
 * The client waits a little longer than the engine's interval, so the usual end of a slow
 * search is the engine's own cancellation answer, already cleaned up.
 */
const CANCEL_GRACE_MS = 250;
/** How long the API spends asking the engine to cancel a timed-out search before it answers anyway. */
const CANCEL_REQUEST_MS = 500;

/** A caller's bound for one engine call: tests shorten it to time out on purpose. */
export interface EngineCallOptions {
  timeoutMs?: number;
}

interface Bound {
  timeoutMs: number;
  opaqueId: string;
  request: { requestTimeout: number; maxRetries: 0; opaqueId: string };
}

function bound(options: EngineCallOptions = {}): Bound {
  const timeoutMs = options.timeoutMs ?? SEARCH_TIMEOUT_MS;
  const opaqueId = `taxcert-search-${randomUUID()}`;
  return { timeoutMs, opaqueId, request: { requestTimeout: timeoutMs + CANCEL_GRACE_MS, maxRetries: 0, opaqueId } };
}

/** The shard-level `timeout` of a body: a little under the whole bound, so a slow shard answers partial (refused below) before cancellation. */
const shardTimeout = (b: Bound) => `${Math.max(1, b.timeoutMs - 500)}ms`;

/**
 * Cancels every search task the engine still runs under this opaque id (the parent task;
 * the engine cancels its children with it). Best effort and bounded: the caller is already
 * failing, and the engine's own interval cancels the task anyway.
 */
export async function cancelByOpaqueId(client: Client, opaqueId: string): Promise<number> {
  try {
    const res = await client.tasks.list({ actions: '*search*', detailed: false }, { requestTimeout: CANCEL_REQUEST_MS, maxRetries: 0 });
    const nodes =
      (res.body as { nodes?: Record<string, { tasks: Record<string, { headers?: Record<string, string>; parent_task_id?: string }> }> })
        .nodes ?? {};
    const ids = Object.values(nodes).flatMap((node) =>
      Object.entries(node.tasks)
        .filter(([, task]) => task.headers?.['X-Opaque-Id'] === opaqueId && task.parent_task_id === undefined)
        .map(([id]) => id),
    );
    await Promise.all(
      ids.map((task_id) => client.tasks.cancel({ task_id }, { requestTimeout: CANCEL_REQUEST_MS, maxRetries: 0 }).catch(() => undefined)),
    );
    return ids.length;
  } catch {
    return 0;
  }
}

/** The engine's answer says it cancelled the task (its own interval ran out): a timeout, told by the error's type. */
function wasCancelled(body: unknown): boolean {
  const error = (body as { error?: { type?: string; root_cause?: { type?: string }[] } } | undefined)?.error;
  if (!error) return false;
  return error.type === 'task_cancelled_exception' || (error.root_cause ?? []).some((c) => c.type === 'task_cancelled_exception');
}

/** Runs one bounded engine call; a client-side timeout cancels the engine's task before the error is thrown. */
async function cancellable<R>(client: Client, b: Bound, send: () => Promise<R>): Promise<R> {
  try {
    return await failover(send);
  } catch (err) {
    if ((err as { name?: string })?.name === 'TimeoutError') await cancelByOpaqueId(client, b.opaqueId);
    throw err;
  }
}

/**
 * The parts of a search answer we read. The engine leaves out the rest (took, _shards,
 * max_score, and each hit's _index and _score: about a tenth of a page of certificates), so
 * there is less to read and parse on every request (see docs/decisions.md, "The request path's
 * CPU budget"). A part that is empty is left out too: an answer with no hits has no hits.hits,
 * and one that counted nothing (track_total_hits: false, no hits) has no hits at all.
 */
const HIT_PARTS = ['hits.total', 'hits.hits._id', 'hits.hits._source', 'hits.hits.fields', 'hits.hits.sort'];
const SEARCH_FILTER = ['timed_out', ...HIT_PARTS, 'aggregations'];
const MSEARCH_FILTER = ['responses.error', 'responses.timed_out', ...HIT_PARTS.map((p) => `responses.${p}`), 'responses.aggregations'];
const GET_FILTER = ['found', '_source'];

/**
 * A request that could not connect (refused, reset before an answer) never reached a node, so it
 * is sent once more: the client marked that node dead and picks another of OPENSEARCH_URL's nodes
 * (so the API keeps answering while a cluster has lost a node). A timeout is not repeated: the node
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
  const e = err as { name?: string; meta?: { statusCode?: number; body?: unknown } };
  if (e?.name === 'TimeoutError' || wasCancelled(e?.meta?.body))
    return new EngineError(operation, 'timeout', `${operation}: no answer within its bound (the engine's task was cancelled)`, {
      cause: err,
    });
  if (e?.name === 'ConnectionError' || e?.name === 'NoLivingConnectionsError')
    return new EngineError(operation, 'unavailable', `${operation}: engine unavailable`, { cause: err });
  return new EngineError(operation, 'refused', `${operation}: engine refused the request (status ${e?.meta?.statusCode ?? 'none'})`, {
    cause: err,
  });
}

export async function search<T>(
  client: Client,
  index: string,
  body: Record<string, unknown>,
  options?: EngineCallOptions,
): Promise<SearchResult<T>> {
  const b = bound(options);
  try {
    const res = await cancellable(client, b, () =>
      client.search(
        {
          index,
          ignore_unavailable: true,
          filter_path: SEARCH_FILTER,
          cancel_after_time_interval: `${b.timeoutMs}ms`,
          body: { timeout: shardTimeout(b), ...body } as never,
        },
        b.request,
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
export async function multiSearch<T>(
  client: Client,
  index: string,
  bodies: Record<string, unknown>[],
  options?: EngineCallOptions,
): Promise<SearchResult<T>[]> {
  const b = bound(options);
  try {
    // Each search of a multi-search is its own task: each header carries the interval.
    const header = { index, ignore_unavailable: true, cancel_after_time_interval: `${b.timeoutMs}ms` };
    const lines = bodies.flatMap((body) => [header, { timeout: shardTimeout(b), ...body }]);
    const res = await cancellable(client, b, () => client.msearch({ filter_path: MSEARCH_FILTER, body: lines as never }, b.request));
    return (res.body.responses as unknown as MsearchItem<T>[]).map((r) => {
      if (r.error || r.timed_out)
        throw new EngineError('msearch', r.timed_out || wasCancelled(r) ? 'timeout' : 'refused', 'msearch: one search failed');
      return { hits: r.hits?.hits ?? [], total: totalOf(r.hits?.total), aggregations: r.aggregations };
    });
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw classify('msearch', err);
  }
}

export async function count(client: Client, index: string, query?: Record<string, unknown>): Promise<number> {
  try {
    const res = await failover(() =>
      client.count({ index, ignore_unavailable: true, body: query ? ({ query } as never) : undefined }, requestOptions),
    );
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
      client.get(
        { index, id, filter_path: GET_FILTER, ...(source ? { _source_includes: [...source] } : {}) },
        { ...requestOptions, ignore: [404] },
      ),
    );
    const body = res.body as { found?: boolean; _source?: T };
    return body.found ? (body._source as T) : null;
  } catch (err) {
    throw classify('get', err);
  }
}

/**
 * Many documents by id in one request (mget), in the order asked; a missing id (or a missing
 * index) is null at its place. A portfolio reads all its certificates this way: one round
 * trip, no query phase, whatever the number of positions.
 */
export async function getByIds<T>(
  client: Client,
  index: string,
  ids: readonly string[],
  source?: readonly string[],
): Promise<(T | null)[]> {
  if (ids.length === 0) return [];
  try {
    const res = await failover(() =>
      client.mget(
        {
          index,
          filter_path: ['docs.found', 'docs._source', 'docs.error'],
          ...(source ? { _source_includes: [...source] } : {}),
          body: { ids: [...ids] },
        },
        { ...requestOptions, ignore: [404] },
      ),
    );
    const docs = (res.body as { docs?: { found?: boolean; _source?: T; error?: unknown }[] }).docs;
    // An index that does not exist answers 404 with no docs: every id is unknown.
    if (docs === undefined) return ids.map(() => null);
    return docs.map((d) => {
      if (d.error) throw new EngineError('mget', 'refused', 'mget: one document could not be read');
      return d.found ? (d._source as T) : null;
    });
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw classify('mget', err);
  }
}
