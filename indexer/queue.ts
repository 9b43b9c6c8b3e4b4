import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../services/config.ts';
import { FILE_DATASETS, type FileDataset } from '../services/domain/datasets.ts';
import type { LoadOutcome } from './load/two-pass-load.ts';

/**
 * The ingest queue. Its Redis keys live under INDEX_PREFIX so two stacks on one
 * Redis never see each other's jobs.
 */
export const QUEUE_NAME = 'ingest';

export const IngestJobData = z.object({
  dataset: z.enum(FILE_DATASETS),
  /** Absolute path of the file to load; the worker reads it from the same filesystem. */
  file: z.string().min(1),
  /** A platform code, county_local, manual or tax_collector. */
  vendor: z.string().min(1),
  county: z.string().min(1),
  taxYear: z.number().int().min(1990).max(2100),
});
export type IngestJobData = z.infer<typeof IngestJobData>;

/** A job as the worker runs it: its data and the id BullMQ gave it. */
export type IngestJob = IngestJobData & { jobId: string };

/** The job's return value: which file it was, and what its load did. */
export interface IngestResult extends Pick<LoadOutcome, 'format' | 'rowsRead' | 'indexed' | 'updated' | 'quarantined'> {
  jobId: string;
  dataset: FileDataset;
  file: string;
  county: string;
  taxYear: number;
  vendor: string;
  /**
   * Of `updated` (documents that replaced one with the same id), how many changed what the API
   * shows and how many came back as they were; absent when the dataset does not compare.
   */
  changed?: number;
  unchanged?: number;
  durationMs: number;
}

export function queuePrefix(config: Pick<Config, 'INDEX_PREFIX'>): string {
  return `${config.INDEX_PREFIX}:bull`;
}

/** Connections for a Queue / QueueEvents; BullMQ wants maxRetriesPerRequest null on blocking ones. */
export function redisConnection(config: Pick<Config, 'REDIS_URL'>): Redis {
  return new Redis(config.REDIS_URL, { maxRetriesPerRequest: null, lazyConnect: false });
}

export function createIngestQueue(config: Pick<Config, 'INDEX_PREFIX'>, connection: Redis): Queue<IngestJobData, IngestResult> {
  return new Queue<IngestJobData, IngestResult>(QUEUE_NAME, {
    connection,
    prefix: queuePrefix(config),
    defaultJobOptions: {
      // Network trouble (OpenSearch busy, Redis blip) is retried; bad files fail at once (UnrecoverableError).
      attempts: 4,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
      removeOnFail: { age: 30 * 24 * 3600 },
    },
  });
}

export function createQueueEvents(config: Pick<Config, 'INDEX_PREFIX'>, connection: Redis): QueueEvents {
  return new QueueEvents(QUEUE_NAME, { connection, prefix: queuePrefix(config) });
}

/**
 * The job id is derived from what the job loads, so enqueuing the same file for
 * the same county and year twice while the first is pending is one job, not two.
 * The content hash keeps a corrected file (same path, new bytes) a new job.
 */
export function ingestJobId(data: IngestJobData, fileSha256: string): string {
  return `${data.dataset}-${data.county}-${data.taxYear}-${fileSha256.slice(0, 16)}`;
}
