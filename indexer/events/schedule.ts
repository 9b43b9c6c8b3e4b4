import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { IndexerDeps } from '../deps.ts';
import { queuePrefix, redisConnection } from '../queue.ts';
import { pruneOldEvents } from './prune.ts';
import { recordPortfolioDeadlines } from './portfolio-deadlines.ts';
import { recordSaleStatusChanges } from './sale-statuses.ts';

/**
 * The change feed's scheduled jobs, run by the worker (`taxcert worker`, `npm start`): BullMQ
 * job schedulers, so however many workers run, each interval produces one job, and a worker
 * that was down runs the one waiting when it is back. Every job is idempotent: a sale's
 * status move is told once (record-sale.ts), pruning twice prunes nothing more, and a portfolio's
 * deadline alert is recorded once (portfolio-deadlines.ts).
 */
export const FEED_QUEUE = 'change-feed';

export const FEED_JOBS = {
  saleStatuses: 'sale-statuses',
  pruneEvents: 'prune-events',
  portfolioDeadlines: 'portfolio-deadlines',
} as const;

/**
 * The deadline alerts run once a day, just after midnight in Florida, whose calendar day they are
 * judged by; five minutes in, so a timer firing a moment early still sees the new day. A day the
 * worker missed is caught up by the next run (services/domain/portfolio-deadlines.ts).
 */
const PORTFOLIO_DEADLINES_AT = { pattern: '5 0 * * *', tz: 'America/New_York' };

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
  await queue.upsertJobScheduler(FEED_JOBS.portfolioDeadlines, PORTFOLIO_DEADLINES_AT, { name: FEED_JOBS.portfolioDeadlines });

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
    if (job.name === FEED_JOBS.portfolioDeadlines) {
      const recorded = await recordPortfolioDeadlines({
        opensearch,
        sql,
        prefix: config.INDEX_PREFIX,
        parcelBaseUrl: config.PARCEL_BASE_URL,
      });
      if (recorded > 0) logger.info({ recorded }, 'portfolio deadline alerts recorded');
      return { recorded };
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
