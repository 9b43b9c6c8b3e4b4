import { dropIndices } from '../../indexer/indices/describe.ts';
import { ensureIndices } from '../../indexer/indices/ensure.ts';
import { Queue } from 'bullmq';
import { FEED_QUEUE } from '../../indexer/events/schedule.ts';
import { BULK_QUEUE } from '../../indexer/bulk/queue-name.ts';
import { createIngestQueue, queuePrefix, redisConnection } from '../../indexer/queue.ts';
import { createWebhookQueue } from '../../indexer/webhooks/queue.ts';
import { openRuntime, type Runtime } from '../../services/process/runtime.ts';
import { type TestContext, testContext } from './context.ts';

export interface TestRuntime extends TestContext {
  runtime: Runtime;
  /** Drops this file's indices and queue keys, closes handles, removes the SQLite file. */
  teardown(): Promise<void>;
}

/**
 * A runtime on the real OpenSearch, Redis and SQLite under this test file's own
 * prefix, with the indices created. Call in beforeAll with import.meta.url.
 */
export async function openTestRuntime(fileUrl: string, env: Record<string, string> = {}): Promise<TestRuntime> {
  const ctx = testContext(fileUrl, env);
  const runtime = await openRuntime(ctx.config);
  await ensureIndices(runtime.opensearch, ctx.config.INDEX_PREFIX, 0);
  return {
    ...ctx,
    runtime,
    async teardown() {
      await dropIndices(runtime.opensearch, ctx.config.INDEX_PREFIX).catch(() => undefined);
      // The queues' Redis keys go too, so repeated runs leave nothing behind: the ingest queue, the
      // change feed's (a `taxcert worker` child registers its schedulers there) and the webhooks'.
      const connection = redisConnection(ctx.config);
      for (const queue of [
        createIngestQueue(ctx.config, connection),
        new Queue(FEED_QUEUE, { connection, prefix: queuePrefix(ctx.config) }),
        createWebhookQueue(ctx.config, connection),
        // A `taxcert worker` child asks for bulk rebuilds after its ingests (delayed jobs).
        new Queue(BULK_QUEUE, { connection, prefix: queuePrefix(ctx.config) }),
      ]) {
        await queue.obliterate({ force: true }).catch(() => undefined);
        await queue.close();
      }
      connection.disconnect();
      await runtime.close();
      ctx.cleanupFiles();
    },
  };
}
