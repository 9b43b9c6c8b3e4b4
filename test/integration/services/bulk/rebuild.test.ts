import { ROUTE_SNAPSHOTS } from '../../../../services/api/routes/bulk/route-snapshots.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BULK_JOBS,
  type BulkRebuildHandle,
  rebuildAfterIngests,
  startBulkRebuilds,
  windowOf,
} from '../../../../indexer/bulk/rebuild-worker.ts';
import { createIngestQueue, redisConnection } from '../../../../indexer/queue.ts';
import { startIngestWorker, type WorkerHandle } from '../../../../indexer/worker.ts';
import { readEntries } from '../../../../services/bulk/entry.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { loadAlachua } from '../../../helpers/bulk.ts';
import { fixturePath } from '../../../helpers/every-dataset.ts';
import { childEnv, runCli } from '../../../helpers/cli.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { until } from '../../../helpers/until.ts';

const DEBOUNCE_MS = 2000;

describe('the worker rebuilds a county’s bulk files after ingests, once per window', () => {
  let t: TestRuntime;
  let dir: string;
  let ingest: WorkerHandle;
  let bulk: BulkRebuildHandle;
  const rebuilt: string[] = [];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'bulk-rebuild-'));
    ingest = startIngestWorker(t.runtime, { concurrency: 1 });
    bulk = startBulkRebuilds(t.runtime, { debounceMs: DEBOUNCE_MS, builders: ROUTE_SNAPSHOTS });
    bulk.worker.on('completed', (job) => rebuilt.push(job.name));
    rebuildAfterIngests(ingest.worker, bulk, t.runtime.logger);
  }, 30_000);
  afterAll(async () => {
    await bulk?.close();
    await ingest?.close();
    await t.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves every request of a window with one job, the next change with the next window’s', () => {
    expect(windowOf(1_000, 2_000)).toBe(2_000);
    expect(windowOf(1_999, 2_000)).toBe(2_000);
    expect(windowOf(2_000, 2_000)).toBe(4_000);
  });

  it('rebuilds the snapshots and the day’s delta after two ingests close together, and bulk status says it is current', async () => {
    await loadAlachua(t.runtime, dir, 'one.csv', alachuaCertificates(20, 2));
    await loadAlachua(t.runtime, dir, 'two.csv', alachuaCertificates(24, 6));
    const storage = folderStorage(t.config.BULK_DIR);
    await until(
      async () => (await readEntries(storage)).some((f) => f.kind === 'snapshot' && f.format === 'parquet' && f.rows === 24),
      'the rebuilt snapshot of 24 rows',
      20_000,
      200,
    );
    await until(() => rebuilt.includes(BULK_JOBS.delta), 'the delta rebuild', 10_000, 100);
    // Two ingests within a window or two: at most one rebuild each.
    expect(rebuilt.filter((n) => n === BULK_JOBS.snapshot).length).toBeLessThanOrEqual(2);
    const status = await runCli(['bulk', 'status', '--json'], childEnv(t.config));
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout).snapshots).toEqual([
      expect.objectContaining({ county: 'alachua', tax_year: 2023, rows: 24, lags: false }),
    ]);
  }, 60_000);

  it('rebuilds the county’s lands-available snapshots after a lands list, the holders file after a holder list, and the day’s sales delta', async () => {
    const outcomes = await enqueueFiles(
      t.runtime,
      [
        {
          dataset: 'lands-available',
          file: fixturePath('files/lands-available/good.csv'),
          vendor: 'county_local',
          county: 'alachua',
          taxYear: 2024,
        },
        { dataset: 'holders', file: fixturePath('files/holders/good.csv'), vendor: 'manual', county: 'alachua', taxYear: 2024 },
      ],
      { wait: true },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded', 'succeeded']);
    const storage = folderStorage(t.config.BULK_DIR);
    const parquet = async () => (await readEntries(storage)).filter((f) => f.format === 'parquet').map((f) => `${f.name} ${f.rows}`);
    await until(
      async () =>
        (await parquet()).includes('holders.snapshot.parquet 3') &&
        (await parquet()).includes('lands-available.alachua.2020.snapshot.parquet 1'),
      'the lands-available and holders snapshots',
      20_000,
      200,
    );
    expect(rebuilt).toEqual(expect.arrayContaining([BULK_JOBS.lands, BULK_JOBS.holders]));
    const all = await parquet();
    expect(all).toContain('lands-available.alachua.2019.snapshot.parquet 1');
    // The earlier delta rebuild wrote the sales delta beside the certificates delta.
    expect(all.filter((n) => n.includes('.delta.'))).toEqual([
      expect.stringMatching(/^certificate-sales\.\d{4}-\d{2}-\d{2}\.delta\.parquet 1$/),
      expect.stringMatching(/^certificates\.\d{4}-\d{2}-\d{2}\.delta\.parquet \d+$/),
    ]);
  }, 60_000);

  it('taxcert bulk build rebuilds on demand and bulk status tells a lagging snapshot', async () => {
    await ingest.close();
    // No worker: the CLI's ingest runs its own, which asks for no rebuild; the snapshot lags.
    await loadAlachua(t.runtime, dir, 'three.csv', alachuaCertificates(26, 6));
    const lagging = JSON.parse((await runCli(['bulk', 'status', '--json'], childEnv(t.config))).stdout);
    expect(lagging.snapshots[0]).toMatchObject({ rows: 24, lags: true });
    const built = await runCli(['bulk', 'build', '--county', 'Alachua', '--tax-year', '2023', '--json'], childEnv(t.config));
    expect(built.code, built.stderr).toBe(0);
    const builtFiles = JSON.parse(built.stdout).files as { name: string; rows: number; dataset: string }[];
    expect(builtFiles.filter((f) => f.dataset === 'certificate-sales').map((f) => f.rows)).toEqual([1, 1, 1]);
    expect(builtFiles.filter((f) => f.dataset === 'certificates').map((f) => [f.name, f.rows])).toEqual([
      ['certificates.alachua.2023.snapshot.parquet', 26],
      ['certificates.alachua.2023.snapshot.csv.gz', 26],
      ['certificates.alachua.2023.snapshot.ndjson.gz', 26],
    ]);
    const current = JSON.parse((await runCli(['bulk', 'status', '--json'], childEnv(t.config))).stdout);
    expect(current.snapshots[0]).toMatchObject({ rows: 26, lags: false });
    // A full build also writes the holders file and every county and tax year's lands-available files.
    const full = await runCli(['bulk', 'build', '--json'], childEnv(t.config));
    expect(full.code, full.stderr).toBe(0);
    const fullNames = (JSON.parse(full.stdout).files as { name: string }[]).map((f) => f.name);
    expect(fullNames).toEqual(
      expect.arrayContaining([
        'holders.snapshot.csv.gz',
        'lands-available.alachua.2019.snapshot.parquet',
        'lands-available.alachua.2020.snapshot.csv.gz',
      ]),
    );
    expect(JSON.parse(full.stdout).removed).toEqual([]);
    // Where the time went, for the operator (and bench:bulk): the certificates' two steps within the whole.
    const timings = JSON.parse(full.stdout).timings;
    expect(Object.keys(timings).sort()).toEqual(['all_seconds', 'certificates_seconds', 'ndjson_and_csv_seconds', 'parquet_seconds']);
    expect(timings.all_seconds).toBeGreaterThanOrEqual(timings.certificates_seconds);
    const usage = await runCli(['bulk', 'build', '--tax-year', '20x3'], childEnv(t.config));
    expect(usage.code).toBe(2);
  }, 90_000);

  it('waits while files are loading, and runs once the load has settled', async () => {
    // A load under way: a file waiting in the ingest queue, which no worker takes (the test before
    // closed this file's ingest worker).
    const connection = redisConnection(t.config);
    const queue = createIngestQueue(t.config, connection);
    try {
      const waiting = await queue.add('ingest', {
        dataset: 'holders',
        file: fixturePath('files/holders/good.csv'),
        vendor: 'manual',
        county: 'alachua',
        taxYear: 2024,
      });
      const before = rebuilt.filter((n) => n === BULK_JOBS.holders).length;
      await bulk.request({ dataset: 'holders' });
      // Two windows pass with the file still waiting: the rebuild has moved itself on, not run.
      await new Promise((resolve) => setTimeout(resolve, 3 * DEBOUNCE_MS));
      expect(rebuilt.filter((n) => n === BULK_JOBS.holders).length).toBe(before);
      expect(await bulk.queue.getJobCounts('delayed')).toMatchObject({ delayed: 1 });
      await waiting.remove();
      await until(() => rebuilt.filter((n) => n === BULK_JOBS.holders).length === before + 1, 'the rebuild after the load', 20_000, 100);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  }, 60_000);
});
