import { randomUUID } from 'node:crypto';
import { errorFromAnswer, TaxcertApiError, TaxcertNetworkError } from './errors.ts';
import { OPERATIONS } from './operations.ts';
import { iteratePages } from './paginate.ts';
import { isRetryableRefusal, parseRetryAfter, RETRY_DEFAULTS, type RetryOptions, retryDelay } from './retry.ts';
import type { ListOperationId, OperationId, OperationInput, OperationMethods, RequestOptions, RowOf, AsOptions } from './types.ts';

export interface ClientOptions extends RetryOptions {
  /** The API's origin, e.g. https://api.example.com (env TAXCERT_BASE_URL). */
  baseUrl?: string;
  /** The API key, sent as Authorization: Bearer (env TAXCERT_API_KEY). */
  apiKey?: string;
  /** Each attempt's bound in ms (AbortSignal.timeout). Default 30,000. */
  timeoutMs?: number;
  /** Called before each retry's wait: for logs and metrics. */
  onRetry?: (retry: RetryEvent) => void;
}

export interface RetryEvent {
  operationId: OperationId;
  /** 1 for the first retry. */
  attempt: number;
  /** The status that failed, or null for a network error or timeout. */
  status: number | null;
  /** The answer's Retry-After in ms, when it had one. */
  retryAfterMs: number | null;
  /** How long the client waits before the next attempt. */
  delayMs: number;
}

/** Writes change state: they carry an Idempotency-Key, so a retry cannot apply them twice. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface AnyInput {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export class TaxcertClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;
  readonly #retry: Required<RetryOptions>;
  readonly #onRetry: ((retry: RetryEvent) => void) | undefined;

  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? process.env.TAXCERT_BASE_URL;
    if (!baseUrl) throw new TypeError('baseUrl is required (or set TAXCERT_BASE_URL)');
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#apiKey = options.apiKey ?? process.env.TAXCERT_API_KEY;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#retry = {
      maxRetries: options.maxRetries ?? RETRY_DEFAULTS.maxRetries,
      baseDelayMs: options.baseDelayMs ?? RETRY_DEFAULTS.baseDelayMs,
      maxDelayMs: options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs,
      maxRetryAfterMs: options.maxRetryAfterMs ?? RETRY_DEFAULTS.maxRetryAfterMs,
    };
    this.#onRetry = options.onRetry;
  }

  /**
   * Calls one operation by its operationId (the methods named after operations call this): a
   * JSON answer parsed, any other (CSV, GeoJSON as text, a calendar) as text.
   */
  async call<K extends OperationId>(operationId: K, input?: OperationInput<K>, options: RequestOptions = {}): Promise<unknown> {
    const answer = await this.#send(operationId, (input ?? {}) as AnyInput, options);
    const text = new TextDecoder().decode(answer.bytes);
    return /\bjson\b/.test(answer.contentType) ? (JSON.parse(text) as unknown) : text;
  }

  /** The operation's answer as text: CSV with query.format 'csv', GeoJSON, or anything else. */
  async text<K extends OperationId>(operationId: K, input?: OperationInput<K>, options: RequestOptions = {}): Promise<string> {
    return new TextDecoder().decode((await this.#send(operationId, (input ?? {}) as AnyInput, options)).bytes);
  }

  /** The operation's answer as bytes (a bulk file). */
  async bytes<K extends OperationId>(operationId: K, input?: OperationInput<K>, options: RequestOptions = {}): Promise<Uint8Array> {
    return (await this.#send(operationId, (input ?? {}) as AnyInput, options)).bytes;
  }

  /**
   * Every row of a list operation, page after page: by the change feed's cursor where the answer
   * has one (pagination.next_after), else by offset until has_more is false. `query.limit` is the
   * page size (the API's default otherwise).
   */
  all<K extends ListOperationId>(operationId: K, input?: OperationInput<K>, options: RequestOptions = {}): AsyncGenerator<RowOf<K>> {
    const base = (input ?? {}) as AnyInput;
    return iteratePages(
      (query) => this.call(operationId, { ...base, query } as OperationInput<K>, options),
      base.query ?? {},
    ) as AsyncGenerator<RowOf<K>>;
  }

  async #send(operationId: OperationId, input: AnyInput, options: RequestOptions): Promise<{ bytes: Uint8Array; contentType: string }> {
    const op = OPERATIONS[operationId];
    if (!op) throw new TypeError(`unknown operation ${String(operationId)}`);
    const url = new URL(this.baseUrl + fillPath(op.path, op.pathParams, input.path ?? {}));
    for (const [name, value] of Object.entries(input.query ?? {})) appendQuery(url, name, value);
    const headers: Record<string, string> = { accept: 'application/json, text/csv;q=0.9, */*;q=0.8' };
    if (this.#apiKey) headers.authorization = `Bearer ${this.#apiKey}`;
    const write = WRITES.has(op.method);
    // The key is made once, before the first attempt, so every retry is the same request to the API.
    if (write) headers['idempotency-key'] = options.idempotencyKey ?? randomUUID();
    let body: string | undefined;
    if (input.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(input.body);
    }
    // A GET changes nothing, and a write carries its key: both may be tried again.
    const retryable = op.method === 'GET' || write;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      const signal = options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs);
      let failure: TaxcertApiError | TaxcertNetworkError;
      try {
        const res = await fetch(url, { method: op.method, headers, body, signal });
        const bytes = new Uint8Array(await res.arrayBuffer());
        if (res.ok) return { bytes, contentType: res.headers.get('content-type') ?? '' };
        const text = new TextDecoder().decode(bytes);
        failure = errorFromAnswer(res.status, res.headers, text, parseRetryAfter(res.headers.get('retry-after')));
      } catch (err) {
        // The caller's own cancellation ends the call; a timeout or a dropped connection may be retried.
        if (options.signal?.aborted) throw err;
        const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
        failure = new TaxcertNetworkError(timedOut ? `no answer within ${timeoutMs} ms` : `request failed: ${describe(err)}`, timedOut, {
          cause: err,
        });
      }
      const refusal = failure instanceof TaxcertApiError ? failure : null;
      const status = refusal?.status ?? null;
      const retryAfterMs = refusal?.retryAfterMs ?? null;
      if (!retryable || attempt >= this.#retry.maxRetries) throw failure;
      if (refusal && !isRetryableRefusal(refusal.status, refusal.code, refusal.details)) throw failure;
      if (retryAfterMs !== null && retryAfterMs > this.#retry.maxRetryAfterMs) throw failure;
      const delayMs = retryDelay(attempt, retryAfterMs, this.#retry);
      this.#onRetry?.({ operationId, attempt: attempt + 1, status, retryAfterMs, delayMs });
      await sleep(delayMs, options.signal);
    }
  }
}

/** A client with one method per operation, named by its operationId. */
export type Taxcert = TaxcertClient & OperationMethods;

export function createClient(options: ClientOptions = {}): Taxcert {
  const client = new TaxcertClient(options);
  const methods: Record<string, unknown> = {};
  for (const operationId of Object.keys(OPERATIONS) as OperationId[]) {
    methods[operationId] = (input?: OperationInput<typeof operationId>, options?: RequestOptions | AsOptions) => {
      const as = options && 'as' in options ? options.as : 'json';
      if (as === 'text') return client.text(operationId, input, options);
      if (as === 'bytes') return client.bytes(operationId, input, options);
      return client.call(operationId, input, options);
    };
  }
  return Object.assign(client, methods) as unknown as Taxcert;
}

function fillPath(path: string, names: readonly string[], values: Record<string, string | number>): string {
  let filled = path;
  for (const name of names) {
    const value = values[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} is required`);
    filled = filled.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  return filled;
}

/** Arrays as repeated parameters (county=a&county=b), as the API reads multi-value filters. */
function appendQuery(url: URL, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const v of value) url.searchParams.append(name, String(v));
  else url.searchParams.append(name, String(value));
}

function describe(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return err instanceof Error ? `${err.message}${cause}` : String(err);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
