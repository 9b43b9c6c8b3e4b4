import { UnrecoverableError } from 'bullmq';

/**
 * A file the worker must not load: retrying cannot help, and nothing from it may
 * reach an index. The worker turns these into BullMQ UnrecoverableErrors.
 */
export type FileRejectionCode =
  | 'unknown_format'
  | 'empty_file'
  | 'truncated_file'
  | 'wrong_county'
  | 'unreadable_file'
  /** Every row was quarantined: nothing to load, so the file fails rather than reports success. */
  | 'no_valid_rows'
  /** A line or record longer than MAX_RECORD_CHARS (adapters/record-limit.ts says why). */
  | 'line_too_long';

export class FileRejectedError extends Error {
  override name = 'FileRejectedError';
  constructor(
    readonly code: FileRejectionCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Why a whole _bulk request failed (no item of it can be trusted as written):
 * - unavailable: the engine stayed busy or unreachable through the writer's retries;
 *   the same job may succeed later, so the queue retries it.
 * - rejected: the engine refused the request itself (a 4xx other than 429: malformed,
 *   too large, forbidden). The same bytes would be refused again, so the job fails at
 *   once with the engine's reason instead of being retried three times for nothing.
 * - engine_error: the engine failed on it (a 500) or answered what we could not read;
 *   not retried by the writer, but the queue may retry the job.
 */
export type BulkRequestErrorCode = 'unavailable' | 'rejected' | 'engine_error';

export class BulkRequestError extends Error {
  override name = 'BulkRequestError';
  constructor(
    readonly code: BulkRequestErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * What a failed run records as its code: the file's rejection code, bulk_rejected, or
 * retryable_error for everything the queue tries again.
 */
export function failureCode(err: unknown): string {
  if (err instanceof FileRejectedError) return err.code;
  if (err instanceof BulkRequestError && err.code === 'rejected') return 'bulk_rejected';
  return 'retryable_error';
}

/**
 * The error a failed job ends in. Input no retry can fix (a rejected file, a request the
 * engine refused as such) becomes an UnrecoverableError, so BullMQ fails the job at once
 * with the reason; anything else (the network, a busy or failing engine) is rethrown for
 * the queue to retry. Decided on the error's class and code, never on its text.
 */
export function jobFailure(err: unknown): unknown {
  if (err instanceof FileRejectedError || (err instanceof BulkRequestError && err.code === 'rejected'))
    return new UnrecoverableError(`${failureCode(err)}: ${err.message}`);
  return err;
}

/**
 * What a customer is told about a rejected file: the source row's lastError, served
 * by /api/v1/sources, list_sources and CSV to every key. A fixed
 * sentence per code, never the error's own message: that one names server paths and
 * quotes the county file, and stays with the ingest run for operators.
 */
export const PUBLIC_REJECTION_MESSAGES: Readonly<Record<FileRejectionCode, string>> = {
  unknown_format: 'the county file is not in the format expected for this feed',
  empty_file: 'the county file holds no rows',
  truncated_file: 'the county file was cut off before its end',
  wrong_county: 'the county file is for another county',
  unreadable_file: 'the county file could not be read',
  no_valid_rows: 'no row of the county file passed validation',
  line_too_long: 'a line of the county file exceeds 1 MiB',
};

/** "<code>: <public message>": lastError of the source row (spec 2.7 keeps it one string). */
export function publicRejection(code: FileRejectionCode): string {
  return `${code}: ${PUBLIC_REJECTION_MESSAGES[code]}`;
}
