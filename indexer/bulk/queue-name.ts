/** The bulk rebuilds' queue (rebuild-worker.ts), named apart so teardowns can name it without loading the builders. */
export const BULK_QUEUE = 'bulk-files';
