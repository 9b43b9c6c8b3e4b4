import { FileRejectedError } from '../errors.ts';

/**
 * The longest line or record a county file may hold, in characters (1 MiB of
 * ASCII). Real rows are a few hundred characters; the longest legal descriptions
 * a few thousand. Without a cap, one 64 MB line took 15 s to read and a ~290 MB one
 * crashed the worker out of heap, after which the stalled job came back three more
 * times, taking down every job in flight each time. A file that crosses it is
 * rejected, not retried.
 */
export const MAX_RECORD_CHARS = 1024 * 1024;

/** The file's rejection; names the line, never quotes the text (it may be the 1 MiB itself). */
export function recordTooLong(format: string, line: number, what = 'line'): FileRejectedError {
  return new FileRejectedError(
    'line_too_long',
    `${format} ${what} starting at line ${line} is longer than ${MAX_RECORD_CHARS} characters, the most a county file may hold in one record`,
  );
}
