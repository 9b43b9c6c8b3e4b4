export type IndexLifecycleCode = 'alias_missing' | 'alias_ambiguous' | 'reindex_failed' | 'count_mismatch' | 'swap_failed';

/** A lifecycle step that could not complete; the old alias and index are left as they were. */
export class IndexLifecycleError extends Error {
  override name = 'IndexLifecycleError';
  constructor(
    readonly code: IndexLifecycleCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
