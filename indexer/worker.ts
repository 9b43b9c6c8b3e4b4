import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadHolderAliases } from '../services/domain/holder-groups.ts';
import type { IndexerDeps } from './deps.ts';
import { createHolderMemory } from './holder-memory.ts';
import { jobFailure } from './errors.ts';
import { createLoadResources } from './load/load-resources.ts';
import { spoolDirectory, sweepStaleSpools } from './load/spool.ts';
import type { LoadProgress } from './load/two-pass-load.ts';
import { processFile } from './process-file.ts';
import { type IngestJobData, type IngestResult, IngestJobData as JobSchema, QUEUE_NAME, queuePrefix, redisConnection } from './queue.ts';

export interface WorkerOptions {
  concurrency: number;
  /** How long a job's lock lives without renewal; a killed worker's job is retried after it. */
  lockDuration?: number;
  stalledInterval?: number;
}

export interface WorkerHandle {
  worker: Worker<IngestJobData, IngestResult>;
  close(): Promise<void>;
}

/** Job progress is written to Redis at most this often. */
const PROGRESS_EVERY_MS = 500;

/**
 * The ingest worker: BullMQ wiring and shutdown only. One job is one file, run by
 * process-file.ts. Bad files and requests the engine refuses fail at once
 * (UnrecoverableError, see errors.ts jobFailure); anything else is retried by the queue.
 */
export function startIngestWorker(runtime: IndexerDeps, options: WorkerOptions): WorkerHandle {
  const { config, sql, logger, opensearch, registry } = runtime;
  // Spools of workers killed mid-file would otherwise stay in the temp folder for ever, owner names
  // and addresses included.
  const swept = sweepStaleSpools();
  if (swept > 0) logger.info({ swept, dir: spoolDirectory() }, 'removed spools of workers that are gone');
  const holderAliases = loadHolderAliases();
  const holderMemory = createHolderMemory(holderAliases);
  const load = createLoadResources(opensearch, {
    prefix: config.INDEX_PREFIX,
    replicas: config.OPENSEARCH_REPLICAS,
    concurrency: options.concurrency,
    logger,
  });
  // BullMQ blocks on its connection; it must be its own instance, and closing the worker does not quit it.
  const connection: Redis = redisConnection(config);
  connection.on('error', (err) => logger.warn({ err: err.message }, 'worker redis connection error'));

  const processor = async (job: Job<IngestJobData, IngestResult>): Promise<IngestResult> => {
    const parsed = JobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid job data: ${parsed.error.issues[0]?.message}`);
    try {
      return await processFile(
        { ...parsed.data, jobId: job.id ?? `job-${Date.now()}` },
        {
          opensearch,
          sql,
          registry,
          logger,
          prefix: config.INDEX_PREFIX,
          parcelBaseUrl: config.PARCEL_BASE_URL,
          holderAliases,
          holderMemory,
          load,
          onProgress: progressOf(job),
        },
      );
    } catch (err) {
      throw jobFailure(err);
    }
  };

  const worker = new Worker<IngestJobData, IngestResult>(QUEUE_NAME, processor, {
    connection,
    prefix: queuePrefix(config),
    concurrency: options.concurrency,
    lockDuration: options.lockDuration ?? 60_000,
    ...(options.stalledInterval ? { stalledInterval: options.stalledInterval } : {}),
    maxStalledCount: 3,
  });
  worker.on('error', (err) => logger.error({ err }, 'worker error'));
  worker.on('failed', (job, err) => logger.debug({ jobId: job?.id, err: err.message }, 'job failed'));

  return {
    worker,
    async close() {
      await worker.close();
      connection.disconnect();
    },
  };
}

/** The load's progress as the job's progress (with a rate), throttled. */
function progressOf(job: Job<IngestJobData, IngestResult>): (p: LoadProgress) => void {
  const started = Date.now();
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    void job.updateProgress({ ...p, rowsPerSec: Math.round(p.rows / ((now - started) / 1000)) }).catch(() => undefined);
  };
}
