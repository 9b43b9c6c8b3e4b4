import { rmSync } from 'node:fs';
import { dropIndices } from '../../indexer/indices/describe.ts';
import { Queue } from 'bullmq';
import { FEED_QUEUE } from '../../indexer/events/schedule.ts';
import { BULK_QUEUE } from '../../indexer/bulk/queue-name.ts';
import { createIngestQueue, queuePrefix, redisConnection } from '../../indexer/queue.ts';
import type { Config } from '../../services/config.ts';
import type { Runtime } from '../../services/process/runtime.ts';

/**
 * What a script that loads data under a throwaway prefix leaves behind, removed: the
 * prefix's indices, its queues (ingest, and the change feed's schedulers a worker registers)
 * and its folder (SQLite, spools). Every step is
 * best effort, since this runs in `finally` after whatever went wrong.
 */
export async function dropScratch(runtime: Pick<Runtime, 'opensearch'>, config: Config, prefix: string, dir: string): Promise<void> {
  await dropIndices(runtime.opensearch, prefix).catch(() => undefined);
  const connection = redisConnection(config);
  for (const queue of [
    createIngestQueue(config, connection),
    new Queue(FEED_QUEUE, { connection, prefix: queuePrefix(config) }),
    new Queue(BULK_QUEUE, { connection, prefix: queuePrefix(config) }),
  ]) {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
  }
  connection.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
