import { type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkRequestError, failureCode, jobFailure } from '../../../indexer/errors.ts';
import { createBulkWriter } from '../../../indexer/load/bulk.ts';
import {
  createIngestQueue,
  createQueueEvents,
  type IngestJobData,
  type IngestResult,
  QUEUE_NAME,
  queuePrefix,
  redisConnection,
} from '../../../indexer/queue.ts';
import { describeFailedJob } from '../../../services/cli/failed-jobs.ts';
import { aliasName } from '../../../services/domain/datasets.ts';
import { createOpenSearch } from '../../../services/engine/client.ts';
import { freePort } from '../../helpers/ports.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';

// A _bulk request the engine refused as malformed (BulkRequestError 'rejected') fails its job at
// once: the same bytes would get the same answer, yet the ingest queue once tried it four times.
// Here a real worker on the real ingest queue (its own attempts and backoff) sends a body the real
// engine refuses, and fails through jobFailure exactly as indexer/worker.ts does.

/** An action line naming no action OpenSearch knows: it answers 400 "Malformed action/metadata line". */
const MALFORMED = Buffer.from('{"frobnicate":{"_id":"a"}}\n{"a":1}\n');

const data = (file: string): IngestJobData => ({ dataset: 'certificates', file, vendor: 'lienport', county: 'alachua', taxYear: 2024 });

describe('a bulk request the engine refuses as malformed', () => {
  let t: TestRuntime;
  let connections: Redis[];
  let worker: Worker;
  let unreachablePort: number;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    unreachablePort = await freePort();
    connections = [redisConnection(t.config), redisConnection(t.config), redisConnection(t.config)];
    const alias = aliasName(t.config.INDEX_PREFIX, 'certificates');
    worker = new Worker<IngestJobData>(
      QUEUE_NAME,
      async (job) => {
        // One file's pass 2, cut to the request: the engine is real, only the body is bad.
        const unreachable = job.data.file === 'engine-down';
        const client = unreachable ? createOpenSearch({ OPENSEARCH_URL: `http://127.0.0.1:${unreachablePort}` }) : t.runtime.opensearch;
        try {
          const writer = createBulkWriter(client, { index: alias, maxAttempts: 1 });
          await writer.addBatch(
            unreachable ? { body: Buffer.from('{"index":{"_id":"a"}}\n{"a":1}\n'), docs: 1 } : { body: MALFORMED, docs: 1 },
          );
          await writer.flush();
        } catch (err) {
          throw jobFailure(err);
        } finally {
          if (unreachable) await client.close();
        }
      },
      { connection: connections[0]!, prefix: queuePrefix(t.config), concurrency: 1 },
    );
  });

  afterAll(async () => {
    await worker.close();
    for (const c of connections) c.disconnect();
    await t.teardown();
  });

  /** Queues one job with the ingest queue's own options (4 attempts), a short backoff, and waits for its end. */
  async function runToFailure(file: string): Promise<Job<IngestJobData, IngestResult>> {
    const queue = createIngestQueue(t.config, connections[1]!);
    const events = createQueueEvents(t.config, connections[2]!);
    try {
      await events.waitUntilReady();
      const job = await queue.add('ingest', data(file), { jobId: `bulk-${file}`, backoff: { type: 'fixed', delay: 20 } });
      await expect(job.waitUntilFinished(events, 30_000)).rejects.toThrow();
      return (await queue.getJob(job.id!))!;
    } finally {
      await events.close();
      await queue.close();
    }
  }

  it('fails the job after one attempt, with the engine reason recorded', async () => {
    const job = await runToFailure('malformed');
    expect(await job.isFailed()).toBe(true);
    expect(job.opts.attempts).toBe(4);
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toMatch(
      /^bulk_rejected: _bulk to t-bulk-refused-\w+-certificates was refused: 400 illegal_argument_exception: Malformed action\/metadata line \[1\]/,
    );
    // What `taxcert status` and `taxcert jobs` show the operator.
    expect(describeFailedJob(job)).toMatchObject({ attempts: 1, reason: expect.stringContaining('bulk_rejected: ') });
  });

  it('is told apart by its type: the ingest run records bulk_rejected, and an unreachable engine is still retried', async () => {
    const refused = new BulkRequestError('rejected', 'x');
    expect(failureCode(refused)).toBe('bulk_rejected');
    expect(failureCode(new BulkRequestError('unavailable', 'x'))).toBe('retryable_error');

    const job = await runToFailure('engine-down');
    expect(job.attemptsMade).toBe(4);
    expect(job.failedReason).toMatch(/^_bulk to \S+ failed 1 times/);
  });
});
