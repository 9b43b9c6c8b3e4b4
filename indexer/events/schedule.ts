import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { IndexerDeps } from '../deps.ts';
import { queuePrefix, redisConnection } from '../queue.ts';
import { pruneOldEvents } from './prune.ts';
import { recordSaleStatusChanges } from './sale-statuses.ts';

/**
 * The change feed's scheduled jobs, run by the worker (`taxcert worker`, `npm start`): BullMQ
 * job schedulers, so however many workers run, each interval produces one job, and a worker
 * that was down runs the one waiting when it is back. Both jobs are idempotent: a sale's
 * status move is told once (record-sale.ts), and pruning twice prunes nothing more.
 */
export const FEED_QUEUE = 'change-feed';

export const FEED_JOBS = { saleStatuses: 'sale-statuses', pruneEvents: 'prune-events' } as const;

export interface FeedScheduleHandle {
  worker: Worker;
  queue: Queue;
  close(): Promise<void>;
}

export async function startFeedSchedule(runtime: IndexerDeps): Promise<FeedScheduleHandle> {
  const { config, sql, logger, opensearch } = runtime;
  const prefix = queuePrefix(config);
  // The worker blocks on its connection: one of its own, as for the ingest worker.
  const queueConnection: Redis = redisConnection(config);
  const workerConnection: Redis = redisConnection(config);
  for (const c of [queueConnection, workerConnection])
    c.on('error', (err) => logger.warn({ err: err.message }, 'feed schedule redis connection error'));
  const queue = new Queue(FEED_QUEUE, {
    connection: queueConnection,
    prefix,
    defaultJobOptions: { removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
  });
  await queue.upsertJobScheduler(FEED_JOBS.saleStatuses, { every: config.SALE_STATUS_EVERY_MS }, { name: FEED_JOBS.saleStatuses });
  await queue.upsertJobScheduler(FEED_JOBS.pruneEvents, { every: config.EVENTS_PRUNE_EVERY_MS }, { name: FEED_JOBS.pruneEvents });

  const processor = async (job: Job) => {
    if (job.name === FEED_JOBS.saleStatuses) {
      const recorded = await recordSaleStatusChanges({ opensearch, sql, prefix: config.INDEX_PREFIX });
      if (recorded.length > 0) logger.info({ recorded: recorded.length }, 'sale status changes recorded');
      return { recorded: recorded.length };
    }
    if (job.name === FEED_JOBS.pruneEvents) {
      const pruned = await pruneOldEvents(sql, config.EVENTS_RETENTION_DAYS);
      if (pruned.events > 0 || pruned.stages > 0) logger.info(pruned, 'old events pruned');
      return pruned;
    }
    throw new UnrecoverableError(`unknown change-feed job ${job.name}`);
  };
  const worker = new Worker(FEED_QUEUE, processor, { connection: workerConnection, prefix, concurrency: 1 });
  worker.on('error', (err) => logger.error({ err }, 'feed schedule worker error'));
  worker.on('failed', (job, err) =>
    logger.warn({ job: job?.name, err: err.message }, 'change-feed job failed; the next interval runs it again'),
  );

  return {
    worker,
    queue,
    async close() {
      await worker.close();
      await queue.close();
      workerConnection.disconnect();
      queueConnection.disconnect();
    },
  };
}
