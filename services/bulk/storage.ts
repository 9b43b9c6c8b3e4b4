import type { Readable } from 'node:stream';

/**
 * Where bulk files live: one small interface, so a deployment with several API hosts can
 * point every host at one shared volume (the folder driver on a mount) or write a driver
 * for an object store (put = upload then copy over the final key, read = a ranged GET).
 * Writers build a file on local disk first; put() makes it visible whole or not at all.
 */
export interface BulkStorage {
  /** A local path to build a file in before put (the driver's temp area, same volume when it can). */
  tempPath(name: string): string;
  /**
   * Makes the local file visible under `name`, replacing any older one, after checking it still has the
   * bytes and sha256 the writer computed while writing: a reader never sees half a file or a torn one.
   */
  put(name: string, localFile: string, expected: { bytes: number; sha256: string }): Promise<void>;
  /** Size and last change of a stored file, or null when there is none. */
  stat(name: string): Promise<StoredFile | null>;
  /** The bytes of a stored file, start..end inclusive when given (a Range request). */
  read(name: string, range?: { start: number; end: number }): Readable;
  /** Every stored name. */
  list(): Promise<string[]>;
  /** Removes a stored file (nothing when absent). */
  remove(name: string): Promise<void>;
}

export interface StoredFile {
  bytes: number;
  modifiedAt: Date;
}

export class BulkVerifyError extends Error {
  override name = 'BulkVerifyError';
}
