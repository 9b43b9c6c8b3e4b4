import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Runtime } from '../services/runtime.ts';
import { finishRun, startRun } from '../services/control/ingest-runs.ts';
import { addQuarantined } from '../services/control/quarantine.ts';
import { recordFailedIngest } from './bookkeeping.ts';
import { FileRejectedError } from './errors.ts';
import { processHolderFile } from './holders/process-holder-file.ts';
import { processLandsAvailableFile } from './lands-available/process-lands-file.ts';
import { processCertificateFile } from './process-file.ts';
import {
  type IngestJobData,
  type IngestResult,
  IngestJobData as JobSchema,
  QUEUE_NAME,
  queuePrefix,
  redisConnection,
} from './queue.ts';
import { aliasName, controlName, FILE_DATASETS } from '../services/domain/datasets.ts';
import { createLanes } from './lane.ts';
import { RefreshGroup } from './refresh-group.ts';
import { SharedBulkMode } from './shared-bulk-mode.ts';

export interface WorkerOptions {
  concurrency: number;
  /** How long a job's lock lives without renewal; a killed worker's job is retried after it. */
  lockDuration?: number;
  stalledInterval?: number;
}

/** The longest a finished file waits for others to share its refresh: bounds a busy worker's job latency. */
const REFRESH_DELAY_MS = 2500;

export interface WorkerHandle {
  worker: Worker<IngestJobData, IngestResult>;
  close(): Promise<void>;
}

/** One loader per dataset, all with the same two-pass discipline and the same shapes. */
const PROCESSORS = {
  certificates: processCertificateFile,
  holders: processHolderFile,
  'lands-available': processLandsAvailableFile,
} as const;

/**
 * The ingest worker: one job is one file. Bad files fail at once
 * (UnrecoverableError, nothing indexed); anything else is retried by the queue,
 * and because ids come from natural keys a retry ends where one clean run would.
 */
export function startIngestWorker(runtime: Runtime, options: WorkerOptions): WorkerHandle {
  const { config, db, logger, opensearch, registry } = runtime;
  const bulkModes = Object.fromEntries(
    FILE_DATASETS.map((dataset) => {
      const mode = new SharedBulkMode(opensearch, {
        index: aliasName(config.INDEX_PREFIX, dataset),
        dataset,
        replicas: config.OPENSEARCH_REPLICAS,
      });
      // A worker that died mid-load left refresh off; queued before any job's bulk mode, so it runs first.
      mode.repair().catch((err: Error) => logger.warn({ err: err.message, dataset }, 'could not restore search settings'));
      return [dataset, mode];
    }),
  ) as Record<IngestJobData['dataset'], SharedBulkMode>;
  // BullMQ blocks on its connection; it must be its own instance, and closing the worker does not quit it.
  const connection: Redis = redisConnection(config);
  connection.on('error', (err) => logger.warn({ err: err.message }, 'worker redis connection error'));

  const lanes = createLanes();
  // Up to concurrency - 2 files wait for one shared refresh, so two slots stay free: one file
  // validating, one sending. The delay bounds how long a job's completion waits for company.
  const refreshPolicy = { maxWaiting: Math.max(1, options.concurrency - 2), maxDelayMs: REFRESH_DELAY_MS };
  const refreshGroups = Object.fromEntries(
    FILE_DATASETS.map((d) => [d, new RefreshGroup(opensearch, aliasName(config.INDEX_PREFIX, d), refreshPolicy)]),
  ) as Record<IngestJobData['dataset'], RefreshGroup>;

  const processor = async (job: Job<IngestJobData, IngestResult>): Promise<IngestResult> => {
    const parsed = JobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid job data: ${parsed.error.issues[0]?.message}`);
    const data = parsed.data;
    const jobId = job.id ?? `job-${Date.now()}`;
    const started = Date.now();
    const log = logger.child({ jobId, county: data.county, taxYear: data.taxYear, file: data.file });
    startRun(db, {
      jobId,
      dataset: controlName(data.dataset),
      filePath: data.file,
      countySlug: data.county,
      taxYear: data.taxYear,
      vendor: data.vendor,
    });
    let lastProgress = 0;
    try {
      const load = PROCESSORS[data.dataset];
      // Bulk mode is held for the whole job, pass 1 included, so a worker busy with a queue
      // of files switches settings once per busy period instead of once per file.
      const bulkMode = bulkModes[data.dataset];
      const outcome = await bulkMode.run(() => load(
        { ...data, jobId },
        {
          opensearch,
          db,
          registry,
          logger: log,
          prefix: config.INDEX_PREFIX,
          replicas: config.OPENSEARCH_REPLICAS,
          parcelBaseUrl: config.PARCEL_BASE_URL,
          bulkMode,
          lanes,
          refresh: refreshGroups[data.dataset],
          onProgress: (p) => {
            const now = Date.now();
            if (now - lastProgress < 500) return;
            lastProgress = now;
            void job.updateProgress({ ...p, rowsPerSec: Math.round(p.rows / ((now - started) / 1000)) }).catch(() => undefined);
          },
        },
        (rows, fileSha256) =>
          addQuarantined(
            db,
            rows.map((r) => ({ runId: jobId, filePath: data.file, fileSha256, line: r.line, raw: r.raw, reasons: r.reasons })),
          ),
      ));
      const result: IngestResult = {
        jobId,
        dataset: data.dataset,
        file: data.file,
        county: data.county,
        taxYear: data.taxYear,
        vendor: data.vendor,
        format: outcome.format,
        rowsRead: outcome.rowsRead,
        indexed: outcome.indexed,
        updated: outcome.updated,
        quarantined: outcome.quarantined,
        durationMs: Date.now() - started,
      };
      finishRun(db, jobId, {
        status: 'succeeded',
        rowsRead: result.rowsRead,
        rowsIndexed: result.indexed,
        rowsUpdated: result.updated,
        rowsQuarantined: result.quarantined,
        fileSha256: outcome.fileSha256,
      });
      // Reading memory costs more than a small file's rows; only when the line is written.
      if (log.isLevelEnabled('info')) {
        const mem = process.memoryUsage();
        const mb = (n: number) => Math.round(n / 2 ** 20);
        log.info(
          {
            ...result,
            timingsMs: outcome.timingsMs,
            memoryMb: { rss: mb(mem.rss), heapUsed: mb(mem.heapUsed), heapTotal: mb(mem.heapTotal), external: mb(mem.external) },
          },
          'file ingested',
        );
      }
      return result;
    } catch (err) {
      const rejected = err instanceof FileRejectedError;
      const message = err instanceof Error ? err.message : String(err);
      finishRun(db, jobId, { status: 'failed', errorCode: rejected ? err.code : 'retryable_error', errorMessage: message });
      if (rejected) {
        recordFailedIngest(db, data.county, data.taxYear, `${err.code}: ${message}`, new Date().toISOString());
        log.warn({ code: err.code, reason: message }, 'file rejected');
        throw new UnrecoverableError(`${err.code}: ${message}`);
      }
      log.error({ err }, 'ingest attempt failed; the queue will retry');
      throw err;
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
