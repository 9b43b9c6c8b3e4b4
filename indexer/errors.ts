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
  | 'no_valid_rows';

export class FileRejectedError extends Error {
  override name = 'FileRejectedError';
  constructor(
    readonly code: FileRejectionCode,
    message: string,
  ) {
    super(message);
  }
}
