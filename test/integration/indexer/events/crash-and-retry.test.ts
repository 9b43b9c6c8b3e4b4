// @module-tag postgres
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestQueue, createQueueEvents, ingestJobId, redisConnection } from '../../../../indexer/queue.ts';
import { startIngestWorker } from '../../../../indexer/worker.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { stagedJobs } from '../../../../services/control/feed/event-stage.ts';
import { getRun } from '../../../../services/control/ingest/ingest-runs.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { BIN, childEnv } from '../../../helpers/cli.ts';
import { alachuaCertificates, alachuaJob, eventsSince, lastEventSeq, writeAlachuaFile } from '../../../helpers/event-files.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * The change feed promises that a job retried after a crash records nothing twice and misses
 * nothing. Two crashes, each where it hurts most:
 * - the worker SIGKILLed in pass 2, after the events were staged and part of the file written:
 *   comparing again would miss the changes already written, so the retry must publish the stage;
 * - the job failing after it published (the sale summary cannot be written): the retry must not
 *   publish again, and the sale's creation, not yet told, is told once.
 */

const ROWS = 30_000;
/** Every 15th certificate of the second file is redeemed. */
const EVERY = 15;

describe('a change-feed job retried after a crash', () => {
  let t: TestRuntime;
  let dir: string;
  let child: ChildProcess | undefined;
  const certificatesIndex = () => aliasName(t.config.INDEX_PREFIX, 'certificates');

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-events-crash-'));
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('fails after publishing, and the retry publishes nothing again; the sale creation it had not told comes once', async () => {
    const { opensearch } = t.runtime;
    const salesIndex = aliasName(t.config.INDEX_PREFIX, 'sales');
    const block = (on: boolean) => opensearch.indices.putSettings({ index: salesIndex, body: { index: { 'blocks.write': on } } });
    const first = await writeAlachuaFile(dir, 'first.csv', alachuaCertificates(ROWS));
    const data = alachuaJob(first);
    // The sales index refuses writes: every attempt publishes the load, then fails in its bookkeeping.
    await block(true);
    const unblocked = (async () => {
      const jobId = ingestJobId(data, await sha(first));
      while ((await getRun(t.runtime.sql, jobId))?.status !== 'failed') await new Promise((r) => setTimeout(r, 50));
      // Attempt 1 published and failed; the queue retries 2 s later.
      expect((await eventsSince(t.runtime.sql)).map((e) => e.type)).toEqual(['certificates.loaded']);
      await block(false);
    })();
    const [outcome] = await enqueueFiles(t.runtime, [data], { wait: true });
    await unblocked;
    expect(outcome?.status, outcome?.error).toBe('succeeded');
    expect((await getRun(t.runtime.sql, outcome!.jobId))?.attempts).toBeGreaterThan(1);
    const events = await eventsSince(t.runtime.sql);
    expect(events.map((e) => e.type)).toEqual(['certificates.loaded', 'county.coverage_changed', 'certificate_sale.created']);
    expect(events[0]!.data.object).toMatchObject({ count: ROWS });
    expect(await stagedJobs(t.runtime.sql)).toEqual([]);
  }, 300_000);

  it('is SIGKILLed in pass 2 after staging, and the rescuer publishes every staged event once, none missed', async () => {
    const { config } = t;
    const before = await lastEventSeq(t.runtime.sql);
    const records = Array.from({ length: ROWS }, (_, n) =>
      n % EVERY === 0
        ? sampleCertificate({ status: 'redeemed', redeemed: true, redeemed_date: '2025-03-01' }, n)
        : sampleCertificate({}, n),
    );
    const flipped = records.filter((r) => r.status === 'redeemed').map((r) => r.id);
    const file = await writeAlachuaFile(dir, 'redeemed.csv', records);

    child = spawn(process.execPath, [BIN, 'worker', '--lock-ms', '2000', '--concurrency', '1'], {
      env: childEnv(config),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const connection = redisConnection(config);
    const queue = createIngestQueue(config, connection);
    const eventsConnection = redisConnection(config);
    const queueEvents = createQueueEvents(config, eventsConnection);
    await queueEvents.waitUntilReady();
    const data = alachuaJob(file);
    const jobId = ingestJobId(data, await sha(file));
    const indexing = new Promise<void>((resolve) =>
      queueEvents.on('progress', ({ jobId: id, data: p }) => {
        const progress = p as { phase?: string; rows?: number };
        if (id === jobId && progress.phase === 'indexing' && (progress.rows ?? 0) >= 5_000) resolve();
      }),
    );
    const job = await queue.add('ingest', data, { jobId });
    await indexing;
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));

    // Killed between staging and publishing: the stage is whole, part of the file is in the
    // index, and nothing is published yet.
    expect(await stagedJobs(t.runtime.sql)).toEqual([{ jobId, complete: true, events: flipped.length }]);
    await t.runtime.opensearch.indices.refresh({ index: certificatesIndex() });
    const written = await t.runtime.opensearch.count({ index: certificatesIndex(), body: { query: { term: { status: 'redeemed' } } } });
    expect(written.body.count).toBeGreaterThan(0);
    expect(written.body.count).toBeLessThan(flipped.length);
    expect(await eventsSince(t.runtime.sql, before)).toEqual([]);

    const rescuer = startIngestWorker(t.runtime, { concurrency: 1, lockDuration: 2000, stalledInterval: 1000 });
    try {
      const result = await job.waitUntilFinished(queueEvents, 360_000);
      expect(result.rowsRead).toBe(ROWS);
    } finally {
      await rescuer.close();
      await queueEvents.close();
      await queue.close();
      connection.disconnect();
      eventsConnection.disconnect();
    }
    const events = await eventsSince(t.runtime.sql, before);
    expect(events).toHaveLength(flipped.length);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['certificate.redeemed']));
    expect(events.map((e) => e.data.object.id).sort()).toEqual([...flipped].sort());
    for (const e of events) expect(e.data.previous).toMatchObject({ status: 'sold' });
    expect(await stagedJobs(t.runtime.sql)).toEqual([]);
  }, 400_000);
});

/** The file's hash, as the CLI names its job (ingestJobId). */
async function sha(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}
