// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { openTestControl } from '../../../../helpers/control.ts';
import { getDatasetState, markIngested } from '../../../../../services/control/ingest/freshness.ts';
import { finishRun, getRun, listRuns, startRun, UnknownRunError } from '../../../../../services/control/ingest/ingest-runs.ts';
import {
  addQuarantined,
  clearQuarantine,
  countQuarantine,
  listQuarantine,
  type QuarantineInput,
} from '../../../../../services/control/ingest/quarantine.ts';
import { recordCheck, upsertSource } from '../../../../../services/control/ingest/sources.ts';
import { testContext } from '../../../../helpers/context.ts';
import { registry } from '../../../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
let db: Sql;
beforeAll(async () => {
  db = await openTestControl({ path: ctx.config.DATABASE_PATH, registry, label: 'ingest-runs' });
});
afterAll(async () => {
  await db.close();
  ctx.cleanupFiles();
});

describe('ingest runs', () => {
  it('a retried job reuses its row: counts reset, attempts counted', async () => {
    const job = { jobId: 'job-1', dataset: 'certificates' as const, filePath: '/in/alachua.csv', countySlug: 'alachua', taxYear: 2025 };
    const started = await startRun(db, { ...job, at: '2026-05-01T00:00:00Z' });
    expect(started).toMatchObject({ status: 'running', attempts: 1, finishedAt: null, fileSha256: null });
    await finishRun(db, 'job-1', { status: 'failed', rowsRead: 10, errorCode: 'retryable_error', errorMessage: 'bulk timed out' });

    const retry = await startRun(db, { ...job, at: '2026-05-01T00:05:00Z' });
    expect(retry).toMatchObject({ id: started.id, status: 'running', attempts: 2, rowsRead: 0, errorCode: null, finishedAt: null });
    const done = await finishRun(db, 'job-1', {
      status: 'succeeded',
      rowsRead: 10,
      rowsIndexed: 8,
      rowsUpdated: 1,
      rowsQuarantined: 1,
      fileSha256: 'a'.repeat(64),
      at: '2026-05-01T00:06:00Z',
    });
    expect(done).toMatchObject({ status: 'succeeded', rowsIndexed: 8, fileSha256: 'a'.repeat(64), finishedAt: '2026-05-01T00:06:00.000Z' });
    expect(await db.get('SELECT count(*) AS n FROM ingest_runs')).toEqual({ n: 1 });
    await expect(finishRun(db, 'nope', { status: 'succeeded' })).rejects.toThrow(UnknownRunError);
  });

  it('lists newest first, with filters and a limit', async () => {
    await startRun(db, { jobId: 'job-2', dataset: 'sales', filePath: '/in/bay.csv', countySlug: 'bay', at: '2026-05-02T00:00:00Z' });
    await startRun(db, {
      jobId: 'job-3',
      dataset: 'certificates',
      filePath: '/in/leon.csv',
      countySlug: 'leon',
      at: '2026-05-03T00:00:00Z',
    });
    expect((await listRuns(db)).map((r) => r.jobId)).toEqual(['job-3', 'job-2', 'job-1']);
    expect((await listRuns(db, { limit: 1 })).map((r) => r.jobId)).toEqual(['job-3']);
    expect((await listRuns(db, { dataset: 'certificates', status: 'succeeded' })).map((r) => r.jobId)).toEqual(['job-1']);
    expect((await getRun(db, 'job-2'))?.dataset).toBe('sales');
    expect(await getRun(db, 'job-9')).toBeNull();
  });
});

describe('quarantine', () => {
  const sha = 'b'.repeat(64);
  const rows = (runId: string): QuarantineInput[] =>
    Array.from({ length: 250 }, (_, i) => ({
      runId,
      filePath: '/in/bay.csv',
      fileSha256: sha,
      line: i + 2,
      raw: `12-345-${i},,bad`,
      reasons: ['face_amount: not a number', `line ${i + 2}`],
    }));

  it('stores a batch; a retried job replaces its own rows, another run of the file keeps its own', async () => {
    expect(await addQuarantined(db, rows('job-2'))).toBe(250);
    expect(await addQuarantined(db, rows('job-2'))).toBe(250); // the same job, retried
    expect(await countQuarantine(db)).toBe(250);
    expect(await addQuarantined(db, rows('job-3'))).toBe(250); // a later run of the same file
    expect(await countQuarantine(db)).toBe(500);
    expect(await countQuarantine(db, { runId: 'job-2' })).toBe(250);
    expect(await countQuarantine(db, { runId: 'job-3' })).toBe(250);
    expect(await addQuarantined(db, [])).toBe(0);
  });

  it('lists in file order with parsed reasons, by file path or sha and by run', async () => {
    const page = await listQuarantine(db, { file: '/in/bay.csv', limit: 2, offset: 2 });
    expect(page.map((r) => [r.line, r.runId])).toEqual([
      [3, 'job-2'],
      [3, 'job-3'],
    ]);
    expect(page[0]).toMatchObject({ raw: '12-345-1,,bad', reasons: ['face_amount: not a number', 'line 3'] });
    expect(await countQuarantine(db, { file: sha })).toBe(500);
    expect(await countQuarantine(db, { file: '/in/other.csv' })).toBe(0);
    expect(await countQuarantine(db, { file: '/in/moved.csv', fileSha256: sha })).toBe(500);
    expect(await listQuarantine(db, { runId: 'job-3' })).toHaveLength(100);
  });

  it('rows go only when cleared on purpose', async () => {
    expect(await clearQuarantine(db, { runId: 'job-2' })).toBe(250);
    expect(await countQuarantine(db, { runId: 'job-3' })).toBe(250);
    expect(await clearQuarantine(db, { runId: 'job-3' })).toBe(250);
    expect(await countQuarantine(db)).toBe(0);
  });

  it('a batch with a bad row stores nothing', async () => {
    const bad = [
      ...rows('job-4')
        .slice(0, 3)
        .map((r) => ({ ...r, fileSha256: 'c'.repeat(64) })),
      { ...rows('job-4')[0]!, line: -1 },
    ];
    await expect(addQuarantined(db, bad)).rejects.toThrow();
    expect(await countQuarantine(db, { runId: 'job-4' })).toBe(0);
  });
});

describe('freshness', () => {
  it('reports the last ingest per dataset and the latest source success', async () => {
    expect(await getDatasetState(db, 'holders')).toEqual({ dataset: 'holders', lastIngestedAt: null, lastSourceSuccessAt: null });

    await markIngested(db, 'certificates', '2026-05-02T00:00:00Z');
    await markIngested(db, 'certificates', new Date('2026-05-01T00:00:00Z')); // a slower, older job finishing late
    await upsertSource(db, registry, { countySlug: 'bay', taxYear: 2025, vendor: 'certbid', sourceKind: 'cert_sale_portal' });
    await upsertSource(db, registry, { countySlug: 'leon', taxYear: 2025, vendor: 'lienport', sourceKind: 'cert_sale_portal' });
    await recordCheck(db, 'bay', 2025, { ok: true, at: '2026-04-01T00:00:00Z' });
    await recordCheck(db, 'leon', 2025, { ok: true, at: '2026-04-03T00:00:00Z' });
    await recordCheck(db, 'leon', 2025, { ok: false, error: 'timeout', at: '2026-04-05T00:00:00Z' });

    expect(await getDatasetState(db, 'certificates')).toEqual({
      dataset: 'certificates',
      lastIngestedAt: '2026-05-02T00:00:00.000Z',
      lastSourceSuccessAt: '2026-04-03T00:00:00.000Z',
    });
    expect((await getDatasetState(db, 'sales')).lastIngestedAt).toBeNull();
  });
});
