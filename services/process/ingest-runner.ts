import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Job } from 'bullmq';
import {
  createIngestQueue,
  createQueueEvents,
  type IngestJobData,
  type IngestResult,
  ingestJobId,
  redisConnection,
} from '../../indexer/queue.ts';
import { ensureIndices } from '../../indexer/indices/ensure.ts';
import type { startIngestWorker } from '../../indexer/worker.ts';
import type { Runtime } from './runtime.ts';
import { type JobProgressEvent, RowsProgress } from './ingest-progress.ts';
import { createProgress } from './progress.ts';

export interface FileOutcome {
  file: string;
  county: string;
  taxYear: number;
  jobId: string;
  status: 'succeeded' | 'failed' | 'queued';
  result?: IngestResult;
  error?: string;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Queues one job per file and, when asked, waits until every one has finished
 * (its rows searchable) or failed. When no worker is listening on the queue, one
 * runs in this process for the duration, so `ingest --wait` also works alone.
 */
export async function enqueueFiles(
  runtime: Runtime,
  jobs: IngestJobData[],
  options: { wait: boolean; expectedRows?: number; progressLabel?: string; onQueued?: () => void },
): Promise<FileOutcome[]> {
  const connection = redisConnection(runtime.config);
  connection.on('error', () => undefined);
  const queue = createIngestQueue(runtime.config, connection);
  // One listener per awaited job on each; a manifest has dozens of files.
  queue.setMaxListeners(0);
  const eventsConnection = options.wait ? redisConnection(runtime.config) : null;
  eventsConnection?.on('error', () => undefined);
  const events = eventsConnection ? createQueueEvents(runtime.config, eventsConnection) : null;
  events?.setMaxListeners(0);
  let embedded: ReturnType<typeof startIngestWorker> | null = null;
  try {
    await ensureIndices(
      runtime.opensearch,
      runtime.config.INDEX_PREFIX,
      runtime.config.OPENSEARCH_REPLICAS,
      runtime.config.OPENSEARCH_SHARDS,
    );
    await events?.waitUntilReady();
    const queued: Job<IngestJobData, IngestResult>[] = [];
    for (const data of jobs) {
      const jobId = ingestJobId(data, await sha256(data.file));
      // A finished job with the same id would make add() a no-op; a new request is a new load.
      const previous = await queue.getJob(jobId);
      if (previous && ((await previous.isCompleted()) || (await previous.isFailed()))) await previous.remove();
      queued.push(await queue.add('ingest', data, { jobId }));
    }
    if (!options.wait) return queued.map((job) => outcome(job, 'queued'));
    options.onQueued?.();

    if ((await queue.getWorkersCount()) === 0) {
      runtime.logger.info('no worker is listening on the queue; running one in this process');
      // Loaded only here: the whole indexer is a third of the CLI's start-up (0.3 s of 1.2 s of
      // CPU), and `taxcert ingest` beside a running worker (npm start's) never needs it.
      const { startIngestWorker } = await import('../../indexer/worker.ts');
      embedded = startIngestWorker(runtime, { concurrency: runtime.config.WORKER_CONCURRENCY });
    }
    // Rows when the manifest says how many (a demo or generated set), else files: never both in one line.
    const byRows = options.expectedRows !== undefined;
    const progress = createProgress(
      options.progressLabel ?? 'ingest',
      byRows ? (options.expectedRows ?? 0) : jobs.length,
      byRows ? 'rows' : 'files',
    );
    const counter = new RowsProgress(jobs.length);
    const ids = new Set(queued.map((j) => j.id));
    const show = () => (byRows ? progress.update(counter.rows, counter.detail) : progress.update(counter.filesDone));
    events!.on('progress', ({ jobId, data }) => {
      if (!ids.has(jobId) || !byRows) return;
      counter.onEvent(jobId, typeof data === 'object' && data !== null ? (data as JobProgressEvent) : {});
      show();
    });
    const results = await Promise.all(
      queued.map(async (job) => {
        let rowsRead: number | undefined;
        try {
          const result = await job.waitUntilFinished(events!);
          rowsRead = result.rowsRead;
          return { ...outcome(job, 'succeeded'), result };
        } catch (err) {
          return { ...outcome(job, 'failed'), error: err instanceof Error ? err.message : String(err) };
        } finally {
          counter.onFinished(job.id ?? '', rowsRead);
          show();
        }
      }),
    );
    // Every file has finished (loaded or failed): the work is over, so the bar ends at 100%.
    progress.finish(byRows ? counter.detail : '');
    return results;
  } finally {
    await embedded?.close();
    await events?.close();
    await queue.close();
    connection.disconnect();
    eventsConnection?.disconnect();
  }
}

function outcome(job: Job<IngestJobData, IngestResult>, status: FileOutcome['status']): FileOutcome {
  return { file: job.data.file, county: job.data.county, taxYear: job.data.taxYear, jobId: job.id ?? '', status };
}
