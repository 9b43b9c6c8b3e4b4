// @module-tag postgres
import { UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIngestQueue, QUEUE_NAME, queuePrefix, redisConnection } from '../../../../indexer/queue.ts';
import { childEnv, runCli } from '../../../helpers/cli.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

// Operators see every failed job and can act on it: status once listed at most 10 of 19 failed
// jobs, with no "N more", each with a 400-character header dump, and no command could list, retry
// or clean failed jobs.

const FAILED = 13;
const dump = `expected a lienport-csv header but found "${'Cert #,Tax Year,County,'.repeat(20)}"\n    at readHeader (adapters/lienport-csv.ts:40)`;

describe('taxcert status and jobs with failed jobs', () => {
  let t: TestRuntime;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    env = childEnv(t.config);
    // Real failed jobs: queued, then failed by a worker the way a bad file fails (unrecoverable).
    const connection = redisConnection(t.config);
    const queue = createIngestQueue(t.config, connection);
    for (let i = 0; i < FAILED; i++)
      await queue.add(
        'ingest',
        { dataset: 'certificates', file: `/data/bad-${i}.csv`, vendor: 'lienport', county: 'broward', taxYear: 2024 },
        { jobId: `bad-${i}` },
      );
    const workerConnection = redisConnection(t.config);
    const worker = new Worker<unknown, void>(
      QUEUE_NAME,
      async () => {
        throw new UnrecoverableError(dump);
      },
      { connection: workerConnection, prefix: queuePrefix(t.config), concurrency: 4, autorun: false },
    );
    let failed = 0;
    const allFailed = new Promise<void>((resolve) => {
      worker.on('failed', () => {
        if (++failed === FAILED) resolve();
      });
    });
    void worker.run();
    await allFailed;
    await worker.close();
    workerConnection.disconnect();
    await queue.close();
    connection.disconnect();
  });
  afterAll(async () => {
    await t.teardown();
  });

  it('status gives the count, ten one-line reasons and how many more', async () => {
    const r = await runCli(['status'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`queue: 0 waiting, 0 active, ${FAILED} failed`));
    const jobLines = r.stdout.split('\n').filter((l) => /^ {2}bad-\d+ {2}broward 2024 /.test(l));
    expect(jobLines).toHaveLength(10);
    for (const line of jobLines) expect(line.length).toBeLessThan(220);
    expect(r.stdout).toContain(`  ... and ${FAILED - 10} more (taxcert jobs list)`);
  });

  it('jobs list shows every failed job; --json carries the full reason', async () => {
    const text = await runCli(['jobs', 'list'], env);
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`${FAILED} failed job(s)`);
    expect(text.stdout.split('\n').filter((l) => l.startsWith('  bad-'))).toHaveLength(FAILED);
    // `taxcert jobs` alone is the list, as `git stash` alone is `git stash list`.
    const bare = await runCli(['jobs'], env);
    expect(bare.code, bare.stderr).toBe(0);
    expect(bare.stdout).toBe(text.stdout);
    const json = await runCli(['jobs', 'list', '--json', '--limit', '2'], env);
    const doc = JSON.parse(json.stdout) as { total: number; jobs: { id: string; reason: string; fullReason: string }[] };
    expect(doc.total).toBe(FAILED);
    expect(doc.jobs).toHaveLength(2);
    expect(doc.jobs[0]?.fullReason).toBe(dump);
    expect(doc.jobs[0]?.reason.endsWith('…')).toBe(true);
  });

  it('jobs retry puts a failed job back in the queue; clean --all removes the rest', async () => {
    expect((await runCli(['jobs', 'retry'], env)).code).toBe(2); // ids or --all
    expect((await runCli(['jobs', 'retry', 'no-such-job'], env)).stderr).toMatch(/^taxcert: no job no-such-job/);
    const retried = await runCli(['jobs', 'retry', 'bad-3'], env);
    expect(retried.code).toBe(0);
    expect(retried.stdout.trim()).toBe('retried 1 job(s): bad-3');
    const cleaned = await runCli(['jobs', 'clean', '--all', '--json'], env);
    expect(JSON.parse(cleaned.stdout).removed).toHaveLength(FAILED - 1);

    const connection = redisConnection(t.config);
    const queue = createIngestQueue(t.config, connection);
    try {
      expect(await queue.getFailedCount()).toBe(0);
      expect((await queue.getJob('bad-3'))?.id).toBe('bad-3');
      expect(await queue.getJobState('bad-3')).toBe('waiting');
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});
