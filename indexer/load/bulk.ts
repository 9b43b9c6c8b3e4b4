import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, errors } from '@opensearch-project/opensearch';
import { BulkRequestError } from '../errors.ts';

export interface BulkWriterOptions {
  /** Alias or index; every operation goes to it. */
  index: string;
  /** Documents per _bulk request. */
  batchDocs?: number;
  /** Bytes of NDJSON per _bulk request; a batch closes at whichever limit comes first. */
  batchBytes?: number;
  /** _bulk requests in flight at once; add() waits while this many are. */
  concurrency?: number;
  /** Refresh the index at the end of flush(), so what was written is searchable. */
  refresh?: boolean;
  /** Tries of one batch on 429, 503 or a lost connection, the first included. */
  maxAttempts?: number;
  /** First backoff; doubled on each retry, with jitter. */
  retryBaseMs?: number;
}

export interface BulkFailure {
  id: string;
  status: number;
  type: string;
  reason: string;
}

export interface BulkTotals {
  created: number;
  updated: number;
  failed: number;
  failures: BulkFailure[];
}

export interface BulkWriter {
  /** Queues one document; a string is taken as its JSON already serialized. */
  add(id: string, doc: object | string): Promise<void>;
  /**
   * Sends a batch that is already a _bulk body (an `index` action line and a source
   * line per document), as the spool of a two-pass load holds them.
   */
  addBatch(batch: { body: Buffer; docs: number }): Promise<void>;
  /** Sends what is queued, waits for every request, and returns the totals so far. */
  flush(): Promise<BulkTotals>;
}

type BulkItem = Record<string, { status: number; result?: string; error?: { type?: string; reason?: string | null } } | undefined>;

interface Batch {
  body: string | Buffer;
  docs: number;
}

/**
 * The two lines (action and source) of each document of a batch. Only needed when
 * an item must be retried or named, so a batch that goes through is never split.
 */
function docPairs(b: Batch): string[] {
  const lines = b.body.toString().split('\n');
  return Array.from({ length: b.docs }, (_, i) => `${lines[2 * i]}\n${lines[2 * i + 1]}\n`);
}

function idOf(pair: string): string {
  return (JSON.parse(pair.slice(0, pair.indexOf('\n'))) as { index?: { _id?: string } }).index?._id ?? '';
}

/** Statuses worth retrying: the node is busy (429, es_rejected_execution) or briefly unreachable. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

function isRetryable(err: unknown): boolean {
  if (err instanceof errors.ConnectionError || err instanceof errors.TimeoutError || err instanceof errors.NoLivingConnectionsError)
    return true;
  return err instanceof errors.ResponseError && RETRY_STATUSES.has(err.statusCode);
}

/**
 * The engine refused the request itself (a 4xx: malformed, too large, forbidden): the same
 * bytes get the same answer, so neither the writer nor the queue sends them again. 408 and
 * 429 say "not now" rather than "not this", so they are not refusals.
 */
function isRefused(err: unknown): err is errors.ResponseError {
  return (
    err instanceof errors.ResponseError && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 408 && err.statusCode !== 429
  );
}

/** The engine's own words for a refused request (status, type, reason), cut short: its reason may echo a long id. */
function refusal(err: errors.ResponseError): string {
  const error = (err.body as { error?: { type?: string; reason?: string } | string } | undefined)?.error;
  const words = typeof error === 'string' ? error : [error?.type, error?.reason].filter(Boolean).join(': ');
  const text = `${err.statusCode} ${words || 'no reason given'}`;
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

/** Only what we count; ids are read from our own batch when an item needs naming. */
const FILTER_PATH = 'errors,items.*.status,items.*.result,items.*.error.type,items.*.error.reason';

/**
 * Streams documents into _bulk as `index` operations with explicit ids: re-sending
 * a document replaces it ('updated'), so a retried job never duplicates. Every
 * refused item is reported in failures; none is dropped.
 */
export function createBulkWriter(client: Client, options: BulkWriterOptions): BulkWriter {
  const batchDocs = options.batchDocs ?? 2000;
  const batchBytes = options.batchBytes ?? 5 * 1024 * 1024;
  const concurrency = Math.max(1, options.concurrency ?? 2);
  const maxAttempts = Math.max(1, options.maxAttempts ?? 4);
  const retryBaseMs = options.retryBaseMs ?? 250;
  const totals: BulkTotals = { created: 0, updated: 0, failed: 0, failures: [] };
  const inFlight = new Set<Promise<void>>();
  /** Documents added one by one, not yet dispatched; chars approximates bytes (ids and JSON are mostly ASCII). */
  let queued: { lines: string[]; chars: number } = { lines: [], chars: 0 };
  let failure: unknown;

  function throwIfFailed(): void {
    if (failure !== undefined) throw failure;
  }

  function recordFailure(id: string, status: number, error: { type?: string; reason?: string | null } | undefined) {
    totals.failed++;
    totals.failures.push({ id, status, type: error?.type ?? 'unknown', reason: error?.reason ?? `status ${status}` });
  }

  const MISSING = { type: 'missing_item', reason: 'no answer for this item' };

  /** One request; returns the documents refused as busy, to be sent again. */
  async function sendOnce(b: Batch): Promise<Batch | null> {
    const res = await client.bulk({ index: options.index, body: b.body as never, filter_path: FILTER_PATH }, { maxRetries: 0 });
    const items = (res.body.items ?? []) as BulkItem[];
    let pairs: string[] | undefined;
    const pair = (i: number) => {
      pairs ??= docPairs(b);
      return pairs[i]!;
    };
    const retry: string[] = [];
    for (const [i, item] of items.entries()) {
      const r = item.index;
      if (!r) recordFailure(idOf(pair(i)), 0, MISSING);
      else if (r.error) {
        // A busy shard refuses single items with 429; those are retried, mapping errors are not.
        if (RETRY_STATUSES.has(r.status)) retry.push(pair(i));
        else recordFailure(idOf(pair(i)), r.status, r.error);
      } else if (r.result === 'created') totals.created++;
      else totals.updated++;
    }
    for (let i = items.length; i < b.docs; i++) recordFailure(idOf(pair(i)), 0, MISSING);
    return retry.length > 0 ? { body: retry.join(''), docs: retry.length } : null;
  }

  async function send(b: Batch): Promise<void> {
    let pending: Batch = b;
    for (let attempt = 1; ; attempt++) {
      let rest: Batch | null;
      try {
        rest = await sendOnce(pending);
      } catch (err) {
        if (isRefused(err))
          throw new BulkRequestError('rejected', `_bulk to ${options.index} was refused: ${refusal(err)}`, { cause: err });
        if (!isRetryable(err))
          throw new BulkRequestError(
            'engine_error',
            `_bulk to ${options.index} failed: ${err instanceof Error ? err.message : String(err)}`,
            {
              cause: err,
            },
          );
        if (attempt >= maxAttempts)
          throw new BulkRequestError('unavailable', `_bulk to ${options.index} failed ${attempt} times`, { cause: err });
        rest = pending;
      }
      if (rest === null) return;
      if (attempt >= maxAttempts) {
        // Still refused after every retry: report, never drop.
        for (const p of docPairs(rest)) recordFailure(idOf(p), 429, { type: 'retries_exhausted', reason: 'busy after retries' });
        return;
      }
      pending = rest;
      await sleep(retryBaseMs * 2 ** (attempt - 1) * (0.5 + Math.random()));
    }
  }

  /** Backpressure: the caller waits here while `concurrency` requests are out. */
  async function dispatch(b: Batch): Promise<void> {
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    throwIfFailed();
    const p: Promise<void> = send(b)
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  function dispatchQueued(): Promise<void> {
    const { lines } = queued;
    queued = { lines: [], chars: 0 };
    return lines.length === 0 ? Promise.resolve() : dispatch({ body: lines.join(''), docs: lines.length });
  }

  return {
    async add(id, doc) {
      throwIfFailed();
      let json = typeof doc === 'string' ? doc : JSON.stringify(doc);
      // NDJSON: a pretty-printed string would split the document across lines.
      if (typeof doc === 'string' && json.includes('\n')) json = JSON.stringify(JSON.parse(json));
      const line = `{"index":{"_id":${JSON.stringify(id)}}}\n${json}\n`;
      queued.lines.push(line);
      queued.chars += line.length;
      if (queued.lines.length >= batchDocs || queued.chars >= batchBytes) await dispatchQueued();
    },
    async addBatch(batch) {
      throwIfFailed();
      await dispatchQueued();
      await dispatch(batch);
    },
    async flush() {
      await dispatchQueued();
      while (inFlight.size > 0) await Promise.all(inFlight);
      throwIfFailed();
      if (options.refresh) await client.indices.refresh({ index: options.index });
      return { ...totals, failures: [...totals.failures] };
    },
  };
}
