// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOldEvents } from '../../../../indexer/events/prune.ts';
import { recordSaleStatusChanges } from '../../../../indexer/events/sale-statuses.ts';
import { FEED_JOBS, startFeedSchedule } from '../../../../indexer/events/schedule.ts';
import { searchSales } from '../../../../services/api/routes/certificate-sales/read.ts';
import { addStaged, completeStage, openStage, stagedJobs } from '../../../../services/control/feed/event-stage.ts';
import { appendEvents } from '../../../../services/control/feed/events.ts';
import { getSaleSeen } from '../../../../services/control/ingest/sale-statuses.ts';
import { saleId } from '../../../../services/domain/ids.ts';
import { alachuaCertificates, alachuaJob, eventsSince, lastEventSeq, writeAlachuaFile } from '../../../helpers/event-files.ts';
import { type FileIngest, openFileIngest } from '../../../helpers/file-ingest.ts';

/**
 * The change feed's scheduled jobs. A sale's status moves at midnight in Florida with no ingest, so
 * the worker checks every sale against the day and records each move once; and events older than
 * the retention are pruned. Both through the real BullMQ worker on Redis, and the sale check also
 * day by day with the clock set.
 */

/** Florida noon of a day, as the clock of a check. */
const noonInFlorida = (day: string) => () => new Date(`${day}T16:00:00.000Z`);

describe('the change feed scheduled jobs', () => {
  let t: FileIngest;
  let dir: string;
  let jobCounter = 0;
  const loadYear = async (taxYear: number, at: string) => {
    const file = await writeAlachuaFile(dir, `alachua-${taxYear}.csv`, alachuaCertificates(20, 0, taxYear), taxYear);
    await t.load({ ...alachuaJob(file, taxYear), jobId: `sched-${++jobCounter}` }, at);
  };
  const statusEvents = async (after = 0) =>
    (await eventsSince(t.runtime.sql, after)).filter((e) => e.type === 'certificate_sale.status_changed');

  beforeAll(async () => {
    t = await openFileIngest(import.meta.url, { SALE_STATUS_EVERY_MS: '1000', EVENTS_PRUNE_EVERY_MS: '1000', EVENTS_RETENTION_DAYS: '30' });
    dir = mkdtempSync(join(tmpdir(), 'taxcert-events-schedule-'));
    // Both loaded a month before their sale (June 1 of the next year): scheduled when created.
    await loadYear(2022, '2023-05-01T12:00:00.000Z');
    await loadYear(2023, '2024-05-01T12:00:00.000Z');
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('tells each sale created at ingest with its status of that day', async () => {
    const created = (await eventsSince(t.runtime.sql)).filter((e) => e.type === 'certificate_sale.created');
    expect(created.map((e) => [e.data.object.tax_year, e.data.object.status])).toEqual([
      [2022, 'scheduled'],
      [2023, 'scheduled'],
    ]);
    expect((await getSaleSeen(t.runtime.sql, saleId('alachua', 2023)))?.status).toBe('scheduled');
  });

  it('records a sale status move on the day it happens in Florida, once however often it runs', async () => {
    const before = await lastEventSeq(t.runtime.sql);
    const deps = { opensearch: t.runtime.opensearch, sql: t.runtime.sql, prefix: t.config.INDEX_PREFIX };
    // The 2022 sale runs on 2023-06-01 only: in progress that day, completed the next.
    expect((await recordSaleStatusChanges(deps, noonInFlorida('2023-05-31'))).length).toBe(0);
    const opened = await recordSaleStatusChanges(deps, noonInFlorida('2023-06-01'));
    expect(opened.map((e) => [e.type, e.data.object.tax_year, e.data.object.status, e.data.previous])).toEqual([
      ['certificate_sale.status_changed', 2022, 'in_progress', { status: 'scheduled' }],
    ]);
    expect(await recordSaleStatusChanges(deps, noonInFlorida('2023-06-01'))).toEqual([]);
    // Midnight in Florida, not in UTC: 03:00 UTC on June 2 is still June 1 there.
    expect(await recordSaleStatusChanges(deps, () => new Date('2023-06-02T03:00:00.000Z'))).toEqual([]);
    const closed = await recordSaleStatusChanges(deps, () => new Date('2023-06-02T05:00:00.000Z'));
    expect(closed.map((e) => [e.data.object.tax_year, e.data.object.status, e.data.previous])).toEqual([
      [2022, 'completed', { status: 'in_progress' }],
    ]);
    expect(await statusEvents(before)).toHaveLength(2);
  });

  it("runs in the worker as a scheduled BullMQ job: today's move of the 2023 sale is recorded once, as the API renders the sale", async () => {
    const before = await lastEventSeq(t.runtime.sql);
    const schedule = await startFeedSchedule(t.runtime);
    const runs: string[] = [];
    schedule.worker.on('completed', (job) => runs.push(job.name));
    try {
      // Three checks at least (one a second): the first tells the move, the others nothing.
      while (runs.filter((n) => n === FEED_JOBS.saleStatuses).length < 3) await new Promise((r) => setTimeout(r, 200));
    } finally {
      await schedule.close();
    }
    const moved = await statusEvents(before);
    expect(moved).toHaveLength(1);
    // Today (long after June 2024) the 2023 sale is over.
    expect(moved[0]!.data.previous).toEqual({ status: 'scheduled' });
    const sales = await searchSales(t.runtime, { county: ['alachua'], tax_year: [2023], limit: 25, offset: 0 });
    expect(moved[0]!.data.object).toEqual(sales.rows[0]);
    expect(moved[0]!.data.object).toMatchObject({ tax_year: 2023, status: 'completed' });
  }, 60_000);

  it('prunes events older than the retention, and stages as old, by the function and by the scheduled job', async () => {
    const { sql } = t.runtime;
    const kept = await lastEventSeq(sql);
    // Events recorded long ago (the clock cannot be set for SQLite's default, so their time is).
    const [oldA, oldB] = await appendEvents(sql, [
      { type: 'certificate.updated', countySlug: 'alachua', data: { object: { id: 'cert_a' }, previous: {} } },
      { type: 'certificate.updated', countySlug: 'alachua', data: { object: { id: 'cert_b' }, previous: {} } },
    ]);
    await sql.run("UPDATE events SET created_at = '2020-01-01T00:00:00.000Z' WHERE id IN (?, ?)", [oldA, oldB]);
    await openStage(sql, { jobId: 'gone-for-good', fileSha256: 'x', countySlug: 'alachua', taxYear: 2023 });
    await addStaged(sql, 'gone-for-good', [
      { type: 'certificate.created', countySlug: 'alachua', docId: 'cert_c', data: { object: {}, previous: {} } },
    ]);
    await completeStage(sql, 'gone-for-good');
    await sql.run("UPDATE event_stage_runs SET created_at = '2020-01-01T00:00:00.000Z'");

    // 30 days kept: nothing recorded today goes, the two old events and the stage do.
    expect(await pruneOldEvents(sql, 30, new Date('2020-01-15T00:00:00.000Z'))).toEqual({ events: 0, stages: 0 });
    const schedule = await startFeedSchedule(t.runtime);
    try {
      while ((await eventsSince(sql)).some((e) => e.seq === oldA || e.seq === oldB)) await new Promise((r) => setTimeout(r, 200));
    } finally {
      await schedule.close();
    }
    expect(await stagedJobs(sql)).toEqual([]);
    expect((await eventsSince(sql)).at(-1)?.seq).toBe(kept);
    expect((await eventsSince(sql)).length).toBeGreaterThan(0);
    // A run with a clock 31 days on prunes everything recorded today.
    const recordedToday = (await eventsSince(sql)).length;
    expect(await pruneOldEvents(sql, 30, new Date(Date.now() + 31 * 86_400_000))).toEqual({ events: recordedToday, stages: 0 });
    expect(await eventsSince(sql)).toEqual([]);
  }, 60_000);
});
