import { ROUTE_SNAPSHOTS } from '../api/routes/bulk/route-snapshots.ts';
import { ensureIndices } from '../../indexer/indices/ensure.ts';
import { startFeedSchedule } from '../../indexer/events/schedule.ts';
import { startWebhookWorker } from '../../indexer/webhooks/worker.ts';
import { startIngestWorker } from '../../indexer/worker.ts';
import { rebuildAfterIngests, startBulkRebuilds } from '../../indexer/bulk/rebuild-worker.ts';
import type { Config } from '../config.ts';
import { announceDevelopment } from './console.ts';
import { openRuntime, requireRedis } from './runtime.ts';
import { untilSignal } from './signals.ts';

/**
 * `taxcert worker` until SIGTERM: the ingest jobs, the change feed's scheduled jobs, and webhook
 * deliveries on their own queue, in one process. lockMs is the job lock lifetime: after a worker
 * dies, its files and deliveries are taken over this long after.
 */
export async function runWorker(config: Config, options: { lockMs: number }): Promise<void> {
  const { lockMs } = options;
  announceDevelopment(config.NODE_ENV);
  await requireRedis(config);
  const runtime = await openRuntime(config, { name: 'worker' });
  try {
    await ensureIndices(runtime.opensearch, config.INDEX_PREFIX, config.OPENSEARCH_REPLICAS, config.OPENSEARCH_SHARDS);
    const handle = startIngestWorker(runtime, {
      concurrency: config.WORKER_CONCURRENCY,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
    });
    // The change feed's daily work: sales whose status changed with the date, and pruning old events.
    const schedule = await startFeedSchedule(runtime);
    // The bulk files of a county and tax year an ingest changed, rebuilt once it has been quiet a moment.
    const bulk = startBulkRebuilds(runtime, { debounceMs: config.BULK_REBUILD_DEBOUNCE_MS, builders: ROUTE_SNAPSHOTS });
    rebuildAfterIngests(handle.worker, bulk, runtime.logger);
    const webhooks = startWebhookWorker(runtime, {
      concurrency: config.WEBHOOK_CONCURRENCY,
      lockDuration: lockMs,
      stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
    });
    runtime.logger.info(
      { concurrency: config.WORKER_CONCURRENCY, webhookConcurrency: config.WEBHOOK_CONCURRENCY, nodeEnv: config.NODE_ENV },
      'worker waiting for jobs',
    );
    const signal = await untilSignal();
    // close() lets the files and deliveries in hand finish; a hard kill instead is recovered by the queue's stalled-job retry.
    runtime.logger.info({ signal }, 'worker stopping after the files and deliveries in hand');
    await Promise.all([handle.close(), webhooks.close(), schedule.close(), bulk.close()]);
  } finally {
    await runtime.close();
  }
}
