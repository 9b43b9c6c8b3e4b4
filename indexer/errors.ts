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
  /** Every row was quarantined: nothing to load (issue 12, item 2). */
  | 'no_valid_rows'
  /** A line or record longer than MAX_RECORD_CHARS (issue 23, item 3). */
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
 * What a customer is told about a rejected file: the source row's lastError, served
 * by /api/v1/sources, list_sources and CSV to every key (issue 23, item 5). A fixed
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
