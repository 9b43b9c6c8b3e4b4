import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database } from '../../../services/control/db.ts';
import { closeDatabase, openLegacyDb as openDatabase } from '../../helpers/control.ts';
import { getDatasetState, markIngested } from '../../../services/control/freshness.ts';
import { finishRun, getRun, listRuns, startRun, UnknownRunError } from '../../../services/control/ingest-runs.ts';
import { addQuarantined, clearQuarantine, countQuarantine, listQuarantine, type QuarantineInput } from '../../../services/control/quarantine.ts';
import { recordCheck, upsertSource } from '../../../services/control/sources.ts';
import { testContext } from '../../helpers/context.ts';
import { registry } from '../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
let db: Database;
beforeAll(async () => {
  db = await openDatabase(ctx.config.DATABASE_PATH, { registry });
});
afterAll(async () => {
  closeDatabase(db);
  ctx.cleanupFiles();
});

describe('ingest runs', () => {
  it('a retried job reuses its row: counts reset, attempts counted', async () => {
    const job = { jobId: 'job-1', dataset: 'certificates' as const, filePath: '/in/alachua.csv', countySlug: 'alachua', taxYear: 2025 };
    const started = startRun(db, { ...job, at: '2026-05-01T00:00:00Z' });
    expect(started).toMatchObject({ status: 'running', attempts: 1, finishedAt: null, fileSha256: null });
    finishRun(db, 'job-1', { status: 'failed', rowsRead: 10, errorCode: 'retryable_error', errorMessage: 'bulk timed out' });

    const retry = startRun(db, { ...job, at: '2026-05-01T00:05:00Z' });
    expect(retry).toMatchObject({ id: started.id, status: 'running', attempts: 2, rowsRead: 0, errorCode: null, finishedAt: null });
    const done = finishRun(db, 'job-1', {
      status: 'succeeded',
      rowsRead: 10,
      rowsIndexed: 8,
      rowsUpdated: 1,
      rowsQuarantined: 1,
      fileSha256: 'a'.repeat(64),
      at: '2026-05-01T00:06:00Z',
    });
    expect(done).toMatchObject({ status: 'succeeded', rowsIndexed: 8, fileSha256: 'a'.repeat(64), finishedAt: '2026-05-01T00:06:00.000Z' });
    expect(db.prepare('SELECT count(*) AS n FROM ingest_runs').get()).toEqual({ n: 1 });
    expect(() => finishRun(db, 'nope', { status: 'succeeded' })).toThrow(UnknownRunError);
  });

  it('lists newest first, with filters and a limit', async () => {
    startRun(db, { jobId: 'job-2', dataset: 'sales', filePath: '/in/bay.csv', countySlug: 'bay', at: '2026-05-02T00:00:00Z' });
    startRun(db, { jobId: 'job-3', dataset: 'certificates', filePath: '/in/leon.csv', countySlug: 'leon', at: '2026-05-03T00:00:00Z' });
    expect(listRuns(db).map((r) => r.jobId)).toEqual(['job-3', 'job-2', 'job-1']);
    expect(listRuns(db, { limit: 1 }).map((r) => r.jobId)).toEqual(['job-3']);
    expect(listRuns(db, { dataset: 'certificates', status: 'succeeded' }).map((r) => r.jobId)).toEqual(['job-1']);
    expect(getRun(db, 'job-2')?.dataset).toBe('sales');
    expect(getRun(db, 'job-9')).toBeNull();
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

  it('stores a batch; a retried job replaces its own rows, another run of the file keeps its own (issue 12, item 3)', async () => {
    expect(addQuarantined(db, rows('job-2'))).toBe(250);
    expect(addQuarantined(db, rows('job-2'))).toBe(250); // the same job, retried
    expect(countQuarantine(db)).toBe(250);
    expect(addQuarantined(db, rows('job-3'))).toBe(250); // a later run of the same file
    expect(countQuarantine(db)).toBe(500);
    expect(countQuarantine(db, { runId: 'job-2' })).toBe(250);
    expect(countQuarantine(db, { runId: 'job-3' })).toBe(250);
    expect(addQuarantined(db, [])).toBe(0);
  });

  it('lists in file order with parsed reasons, by file path or sha and by run', async () => {
    const page = listQuarantine(db, { file: '/in/bay.csv', limit: 2, offset: 2 });
    expect(page.map((r) => [r.line, r.runId])).toEqual([
      [3, 'job-2'],
      [3, 'job-3'],
    ]);
    expect(page[0]).toMatchObject({ raw: '12-345-1,,bad', reasons: ['face_amount: not a number', 'line 3'] });
    expect(countQuarantine(db, { file: sha })).toBe(500);
    expect(countQuarantine(db, { file: '/in/other.csv' })).toBe(0);
    expect(countQuarantine(db, { file: '/in/moved.csv', fileSha256: sha })).toBe(500);
    expect(listQuarantine(db, { runId: 'job-3' })).toHaveLength(100);
  });

  it('rows go only when cleared on purpose', async () => {
    expect(clearQuarantine(db, { runId: 'job-2' })).toBe(250);
    expect(countQuarantine(db, { runId: 'job-3' })).toBe(250);
    expect(clearQuarantine(db, { runId: 'job-3' })).toBe(250);
    expect(countQuarantine(db)).toBe(0);
  });

  it('a batch with a bad row stores nothing', async () => {
    const bad = [...rows('job-4').slice(0, 3).map((r) => ({ ...r, fileSha256: 'c'.repeat(64) })), { ...rows('job-4')[0]!, line: -1 }];
    expect(() => addQuarantined(db, bad)).toThrow();
    expect(countQuarantine(db, { runId: 'job-4' })).toBe(0);
  });
});

describe('freshness', () => {
  it('reports the last ingest per dataset and the latest source success', async () => {
    expect(getDatasetState(db, 'holders')).toEqual({ dataset: 'holders', lastIngestedAt: null, lastSourceSuccessAt: null });

    markIngested(db, 'certificates', '2026-05-02T00:00:00Z');
    markIngested(db, 'certificates', new Date('2026-05-01T00:00:00Z')); // a slower, older job finishing late
    upsertSource(db, registry, { countySlug: 'bay', taxYear: 2025, vendor: 'certbid', sourceKind: 'cert_sale_portal' });
    upsertSource(db, registry, { countySlug: 'leon', taxYear: 2025, vendor: 'lienport', sourceKind: 'cert_sale_portal' });
    recordCheck(db, 'bay', 2025, { ok: true, at: '2026-04-01T00:00:00Z' });
    recordCheck(db, 'leon', 2025, { ok: true, at: '2026-04-03T00:00:00Z' });
    recordCheck(db, 'leon', 2025, { ok: false, error: 'timeout', at: '2026-04-05T00:00:00Z' });

    expect(getDatasetState(db, 'certificates')).toEqual({
      dataset: 'certificates',
      lastIngestedAt: '2026-05-02T00:00:00.000Z',
      lastSourceSuccessAt: '2026-04-03T00:00:00.000Z',
    });
    expect(getDatasetState(db, 'sales').lastIngestedAt).toBeNull();
  });
});
