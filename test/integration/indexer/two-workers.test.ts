// @module-tag postgres
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../services/generator/generate-fixtures.ts';
import { enqueueFiles } from '../../../services/process/ingest-runner.ts';
import { manifestJobs } from '../../../services/process/manifest-jobs.ts';
import { listCounties } from '../../../services/control/ingest/counties.ts';
import { listRuns } from '../../../services/control/ingest/ingest-runs.ts';
import { upsertSource } from '../../../services/control/ingest/sources.ts';
import { aliasName } from '../../../services/domain/datasets.ts';
import { BIN, childEnv } from '../../helpers/cli.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';

// Several hosts can share the ingest: the indexer's bookkeeping (runs, county counts, sources,
// events) on one control plane shared by two worker processes taking jobs from one queue. Under
// TEST_DATABASE_URL the control plane is PostgreSQL; otherwise the workers share the SQLite file.

const CERTIFICATES = 4_000;

describe('two workers on one queue and one control plane', () => {
  let t: TestRuntime;
  let dir: string;
  const workers: ChildProcess[] = [];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-two-workers-'));
    await generateFixtures({ out: dir, certificates: CERTIFICATES, seed: 22, today: '2026-11-22' });
    for (let i = 0; i < 2; i++)
      workers.push(
        spawn(process.execPath, [BIN, 'worker', '--concurrency', '2'], { env: childEnv(t.config), stdio: ['ignore', 'ignore', 'inherit'] }),
      );
  });

  afterAll(async () => {
    await Promise.all(
      workers.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve(null);
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('loads every file once, and the counts the control plane keeps match the index', async () => {
    const { jobs, sources, rows } = manifestJobs(join(dir, 'manifest.json'));
    expect(jobs.length).toBeGreaterThan(4);
    for (const source of sources) await upsertSource(t.runtime.sql, t.runtime.registry, source);
    const outcomes = await enqueueFiles(t.runtime, jobs, { wait: true, expectedRows: rows });
    expect(outcomes.filter((o) => o.status !== 'succeeded')).toEqual([]);

    // One finished run per file, none twice.
    const runs = await listRuns(t.runtime.sql, { limit: 1000 });
    expect(runs).toHaveLength(jobs.length);
    expect(new Set(runs.map((r) => r.jobId)).size).toBe(jobs.length);
    expect(runs.every((r) => r.status === 'succeeded' && r.attempts === 1)).toBe(true);

    // Every county's certificate count is what the index holds for it.
    const res = await t.runtime.opensearch.search({
      index: aliasName(t.config.INDEX_PREFIX, 'certificates'),
      body: { size: 0, track_total_hits: true, aggs: { counties: { terms: { field: 'county_slug', size: 100 } } } } as never,
    });
    const body = res.body as unknown as {
      hits: { total: { value: number } };
      aggregations: { counties: { buckets: { key: string; doc_count: number }[] } };
    };
    const indexed = Object.fromEntries(body.aggregations.counties.buckets.map((b) => [b.key, b.doc_count]));
    const counted = Object.fromEntries(
      (await listCounties(t.runtime.sql)).filter((c) => c.certificateCount > 0).map((c) => [c.countySlug, c.certificateCount]),
    );
    expect(counted).toEqual(indexed);
    expect(body.hits.total.value).toBe(runs.reduce((n, r) => n + r.rowsIndexed + r.rowsUpdated, 0));
  });
});
