import { DelayedError, type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import type { Logger } from '../../services/logger.ts';
import type { Redis } from 'ioredis';
import { buildCertificateSnapshot } from '../../services/bulk/build-certificates.ts';
import { buildDayDeltas } from '../../services/bulk/build-deltas.ts';
import { buildSaleSnapshots } from '../../services/bulk/build-directory.ts';
import type { BulkDeps } from '../../services/bulk/build-certificates.ts';
import type { BulkFile } from '../../services/bulk/entry.ts';
import { folderStorage } from '../../services/bulk/folder-storage.ts';
import { deltaCutoff, pruneBulkFiles } from '../../services/bulk/prune.ts';
import { floridaToday } from '../../services/domain/florida-today.ts';
import type { IndexerDeps } from '../deps.ts';
import { createIngestQueue, queuePrefix, redisConnection } from '../queue.ts';
import { BULK_QUEUE } from './queue-name.ts';
import type { IngestJobData, IngestResult } from '../queue.ts';

/**
 * The bulk files' rebuilds, run by the worker: after an ingest changes a county and tax year of
 * certificates, its snapshots (and the day's delta) are rebuilt once the county has been quiet
 * for a moment, not after every file. Each request is a delayed job whose id names the scope and
 * the window it runs at (the next multiple of the debounce): the requests of one window share one
 * job (BullMQ ignores a second job with an existing id), and a change that lands while that job
 * runs asks for the next window's, so it is never lost. A busy day rebuilds each scope at most
 * once per window. A lands-available list rebuilds its county's lands snapshots (every tax year
 * the list names), a holder list the holders snapshot, the same way.
 *
 * A rebuild whose window comes while files are still loading waits for the load to settle: it
 * moves itself one window later for as long as ingest jobs are waiting or running, up to
 * REBUILD_MAX_WAIT_WINDOWS windows after it was asked for. A rebuild reads every row of its county
 * and runs DuckDB, about 80 µs of CPU a row; run beside a 1M load on two cores, the rebuilds took
 * the cores the load was waiting for (the stack's CPU per row 23 -> 117 µs).
 */
export { BULK_QUEUE };

export const BULK_JOBS = {
  snapshot: 'certificates-snapshot',
  delta: 'certificates-delta',
  lands: 'lands-available-snapshot',
  holders: 'holders-snapshot',
} as const;

type RebuildData = { county: string; taxYear: number } | { day: string } | { county: string } | { dataset: 'holders' };

/** What a finished ingest asks to be rebuilt: the files its dataset feeds, at the scope it touched. */
export type RebuildRequest =
  | { dataset: 'certificates'; county: string; taxYear: number }
  | { dataset: 'lands-available'; county: string }
  | { dataset: 'holders' };

export interface BulkRebuildHandle {
  queue: Queue<RebuildData>;
  worker: Worker<RebuildData>;
  /** Asks for the scope's files to be rebuilt at the end of the current window. */
  request(scope: RebuildRequest, now?: Date): Promise<void>;
  close(): Promise<void>;
}

/** How many windows a rebuild may wait for loads to settle before it runs beside them anyway. */
export const REBUILD_MAX_WAIT_WINDOWS = 10;

/** Whether a rebuild asked for at `askedAt` runs now: no load under way, or it has waited long enough. */
export function rebuildRunsNow(loading: number, askedAt: number, now: number, debounceMs: number): boolean {
  return loading === 0 || now - askedAt >= REBUILD_MAX_WAIT_WINDOWS * debounceMs;
}

/** The window a request made now is served in: the next multiple of the debounce, strictly after now. */
export function windowOf(now: number, debounceMs: number): number {
  return (Math.floor(now / debounceMs) + 1) * debounceMs;
}

/**
 * The holders and lands-available builders read through those routes' own query and mapper, which
 * live with the API; the worker does not import the API, so whoever starts it hands them in.
 */
export interface RouteSnapshotBuilders {
  holders(deps: BulkDeps): Promise<BulkFile[]>;
  lands(deps: BulkDeps, only: { county?: string }): Promise<BulkFile[]>;
}

export function startBulkRebuilds(
  runtime: IndexerDeps,
  options: { debounceMs: number; builders: RouteSnapshotBuilders },
): BulkRebuildHandle {
  const { config, logger } = runtime;
  const prefix = queuePrefix(config);
  const queueConnection: Redis = redisConnection(config);
  const workerConnection: Redis = redisConnection(config);
  for (const c of [queueConnection, workerConnection])
    c.on('error', (err) => logger.warn({ err: err.message }, 'bulk rebuild redis connection error'));
  const queue = new Queue<RebuildData>(BULK_QUEUE, {
    connection: queueConnection,
    prefix,
    // Removed when done, so the next window's job may take the id again; failures retry twice.
    defaultJobOptions: { removeOnComplete: true, removeOnFail: { count: 100 }, attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  });
  const ingest = createIngestQueue(config, queueConnection);
  const deps = { ...runtime, storage: folderStorage(config.BULK_DIR) };
  const processor = async (job: Job<RebuildData>, token?: string) => {
    const counts = await ingest.getJobCounts('active', 'waiting', 'prioritized');
    const loading = (counts.active ?? 0) + (counts.waiting ?? 0) + (counts.prioritized ?? 0);
    if (!rebuildRunsNow(loading, job.timestamp, Date.now(), options.debounceMs)) {
      await job.moveToDelayed(Date.now() + options.debounceMs, token);
      throw new DelayedError();
    }
    if (job.name === BULK_JOBS.snapshot && 'taxYear' in job.data) {
      const files = await buildCertificateSnapshot(deps, job.data);
      // The county's sale is derived from its certificates: its summary changes with them.
      await buildSaleSnapshots(deps, { county: job.data.county, taxYear: job.data.taxYear });
      logger.info({ county: job.data.county, taxYear: job.data.taxYear, rows: files[0]?.rows }, 'bulk snapshot rebuilt');
      return { files: files.length };
    }
    if (job.name === BULK_JOBS.delta && 'day' in job.data) {
      // The sales delta is made of the same day's certificate events.
      const files = await buildDayDeltas(deps, job.data.day);
      // Deltas live as long as the events they are made of (EVENTS_RETENTION_DAYS).
      await pruneBulkFiles(deps.storage, { deltasFrom: deltaCutoff(floridaToday(new Date()), config.EVENTS_RETENTION_DAYS) });
      return { files: files.length };
    }
    if (job.name === BULK_JOBS.lands && 'county' in job.data) {
      // A county's list names several tax years: each has its own file set.
      const files = await options.builders.lands(deps, { county: job.data.county });
      logger.info({ county: job.data.county, files: files.length }, 'bulk lands-available snapshots rebuilt');
      return { files: files.length };
    }
    if (job.name === BULK_JOBS.holders) {
      const files = await options.builders.holders(deps);
      logger.info({ rows: files[0]?.rows ?? 0 }, 'bulk holders snapshot rebuilt');
      return { files: files.length };
    }
    throw new UnrecoverableError(`unknown bulk job ${job.name}`);
  };
  // One rebuild at a time: each reads a whole county from the engine and runs DuckDB.
  const worker = new Worker<RebuildData>(BULK_QUEUE, processor, { connection: workerConnection, prefix, concurrency: 1 });
  worker.on('error', (err) => logger.error({ err }, 'bulk rebuild worker error'));
  worker.on('failed', (job, err) => logger.warn({ job: job?.name, err: err.message }, 'bulk rebuild failed'));

  return {
    queue,
    worker,
    async request(scope, now = new Date()) {
      const runAt = windowOf(now.getTime(), options.debounceMs);
      const delay = Math.max(0, runAt - Date.now());
      if (scope.dataset === 'lands-available') {
        await queue.add(BULK_JOBS.lands, { county: scope.county }, { jobId: `lands.${scope.county}.${runAt}`, delay });
        return;
      }
      if (scope.dataset === 'holders') {
        await queue.add(BULK_JOBS.holders, { dataset: 'holders' }, { jobId: `holders.${runAt}`, delay });
        return;
      }
      const { county, taxYear } = scope;
      await queue.add(BULK_JOBS.snapshot, { county, taxYear }, { jobId: `snapshot.${county}.${taxYear}.${runAt}`, delay });
      const day = floridaToday(now);
      await queue.add(BULK_JOBS.delta, { day }, { jobId: `delta.${day}.${runAt}`, delay });
    },
    async close() {
      await worker.close();
      await queue.close();
      await ingest.close();
      workerConnection.disconnect();
      queueConnection.disconnect();
    },
  };
}

/** Whether a finished ingest changed what a certificates snapshot holds. */
export function changesCertificates(data: IngestJobData | undefined, result: IngestResult | undefined): boolean {
  return data?.dataset === 'certificates' && changesRows(result);
}

/**
 * New documents, or replaced ones that changed (datasets that do not compare count every
 * replaced document as a change: a rebuild too many costs a moment, one too few a stale file).
 */
function changesRows(result: IngestResult | undefined): boolean {
  return result !== undefined && (result.indexed > 0 || (result.changed ?? result.updated) > 0);
}

/** The rebuild a finished ingest asks for, or null when it changed nothing a bulk file holds (parcels: none). */
export function rebuildFor(data: IngestJobData | undefined, result: IngestResult | undefined): RebuildRequest | null {
  if (!data || !changesRows(result)) return null;
  if (data.dataset === 'certificates') return { dataset: 'certificates', county: data.county, taxYear: data.taxYear };
  // A lands list is its county's; the job's tax year means nothing (each row names its own).
  if (data.dataset === 'lands-available') return { dataset: 'lands-available', county: data.county };
  if (data.dataset === 'holders') return { dataset: 'holders' };
  return null;
}

/** Asks for a rebuild after every ingest job of the worker that changed rows a bulk file holds. */
export function rebuildAfterIngests(ingest: Worker<IngestJobData, IngestResult>, bulk: BulkRebuildHandle, logger: Logger): void {
  ingest.on('completed', (job, result) => {
    const request = rebuildFor(job.data, result);
    if (!request) return;
    bulk.request(request).catch((err: Error) => logger.warn({ err: err.message, county: job.data.county }, 'bulk rebuild not requested'));
  });
}
