// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateCountyCoverage } from '../../../../../services/control/ingest/counties.ts';
import {
  addStaged,
  completeStage,
  discardStage,
  openStage,
  publishStage,
  pruneStages,
  stagedData,
  stagedJobs,
} from '../../../../../services/control/feed/event-stage.ts';
import {
  allEventsAfter,
  appendEvents,
  countEventsAfter,
  eventBounds,
  eventsAfter,
  pruneEvents,
  recentSavedSearchEvents,
} from '../../../../../services/control/feed/events.ts';
import { getDatasetState, markIngested } from '../../../../../services/control/ingest/freshness.ts';
import { announceSale, getSaleSeen, setSaleSeen } from '../../../../../services/control/ingest/sale-statuses.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { openTestControl } from '../../../../helpers/control.ts';
import { registry } from '../../../../helpers/registry.ts';

/**
 * The change feed's tables through their modules, on the one Sql interface both engines implement:
 * the same assertions on SQLite and, under TEST_DATABASE_URL, on PostgreSQL, where ids come from an
 * identity sequence instead of AUTOINCREMENT.
 */
let sql: Sql;
beforeAll(async () => {
  sql = await openTestControl({ registry, label: 'change-feed' });
});
afterAll(async () => {
  await sql.close();
});

const data = (id: string) => ({ object: { id }, previous: {} });
/** A client reading the feed: every event these tests record but the private ones is public. */
const viewer = 'cli_tablesreader';

describe('events', () => {
  it('gives increasing ids, filters by type and county, and keeps the last id given after pruning', async () => {
    expect(await eventBounds(sql)).toEqual({ oldestSeq: null, lastSeq: 0 });
    const ids = await appendEvents(sql, [
      { type: 'certificate.redeemed', countySlug: 'alachua', data: data('a') },
      { type: 'certificate.updated', countySlug: 'broward', data: data('b') },
      { type: 'certificate.redeemed', countySlug: 'broward', data: data('c') },
    ]);
    expect(ids).toHaveLength(3);
    expect(ids[1]! > ids[0]! && ids[2]! > ids[1]!).toBe(true);
    expect(await appendEvents(sql, [])).toEqual([]);

    const all = await eventsAfter(sql, { viewer, afterSeq: 0 }, 10);
    expect(all.map((e) => e.seq)).toEqual(ids);
    expect(all[0]).toMatchObject({ type: 'certificate.redeemed', countySlug: 'alachua', data: data('a') });
    expect(all[0]!.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((await eventsAfter(sql, { viewer, afterSeq: ids[0]!, types: ['certificate.redeemed'] }, 10)).map((e) => e.seq)).toEqual([
      ids[2],
    ]);
    expect((await eventsAfter(sql, { viewer, afterSeq: 0, counties: ['broward'] }, 1)).map((e) => e.seq)).toEqual([ids[1]]);
    expect(await countEventsAfter(sql, { viewer, afterSeq: 0, counties: ['broward'] })).toBe(2);
    expect(await countEventsAfter(sql, { viewer, afterSeq: 0, types: ['certificate.redeemed'], counties: ['alachua', 'broward'] })).toBe(2);
    expect(await eventBounds(sql)).toEqual({ oldestSeq: ids[0], lastSeq: ids[2] });

    await sql.run("UPDATE events SET created_at = '2020-01-01T00:00:00.000Z'");
    expect(await pruneEvents(sql, '2021-01-01T00:00:00.000Z')).toBe(3);
    // The last id survives the rows: a cursor of a pruned event is told apart from one never given.
    expect(await eventBounds(sql)).toEqual({ oldestSeq: null, lastSeq: ids[2] });
    const [next] = await appendEvents(sql, [{ type: 'certificate.cancelled', countySlug: null, data: data('d') }]);
    expect(next! > ids[2]!).toBe(true);
  });

  it("answers a viewer the public events and its own private ones, never another client's; allEventsAfter reads them all", async () => {
    const { lastSeq } = await eventBounds(sql);
    const mine = { clientId: 'cli_tables_a', savedSearchId: 'ss_tables_a' };
    const theirs = { clientId: 'cli_tables_b', savedSearchId: 'ss_tables_b' };
    const loaded = (id: string) => ({ ...data(id), saved_search: { id: 'ss_x', name: 'x' } });
    const ids = await appendEvents(sql, [
      { type: 'certificate.redeemed', countySlug: 'alachua', data: data('p1') },
      { type: 'saved_search.match_added', countySlug: 'alachua', data: loaded('a1'), owner: mine },
      { type: 'saved_search.match_added', countySlug: 'alachua', data: loaded('b1'), owner: theirs },
      { type: 'certificate.redeemed', countySlug: 'alachua', data: data('p2') },
      { type: 'saved_search.match_removed', countySlug: 'broward', data: loaded('a2'), owner: mine },
    ]);
    const seqs = async (viewer: string, filter: { types?: string[]; counties?: string[] } = {}) =>
      (await eventsAfter(sql, { viewer, afterSeq: lastSeq, ...filter }, 10)).map((e) => e.seq);
    expect(await seqs(mine.clientId)).toEqual([ids[0], ids[1], ids[3], ids[4]]);
    expect(await seqs(theirs.clientId)).toEqual([ids[0], ids[2], ids[3]]);
    expect(await seqs(viewer)).toEqual([ids[0], ids[3]]);
    expect(await countEventsAfter(sql, { viewer: mine.clientId, afterSeq: lastSeq })).toBe(4);
    expect(await countEventsAfter(sql, { viewer: theirs.clientId, afterSeq: lastSeq })).toBe(3);
    expect(await countEventsAfter(sql, { viewer, afterSeq: lastSeq })).toBe(2);
    expect(await seqs(theirs.clientId, { types: ['saved_search.match_added', 'saved_search.match_removed'] })).toEqual([ids[2]]);
    expect(await countEventsAfter(sql, { viewer: mine.clientId, afterSeq: lastSeq, types: ['saved_search.match_removed'] })).toBe(1);
    // The owner comes back with the event, and the delivery reader sees every owner's.
    const all = await allEventsAfter(sql, lastSeq, 10);
    expect(all.map((e) => e.seq)).toEqual(ids);
    expect(all.map((e) => e.owner ?? null)).toEqual([null, mine, theirs, null, mine]);
    expect(all[1]!.data.saved_search).toEqual({ id: 'ss_x', name: 'x' });
    expect(await allEventsAfter(sql, ids[3]!, 1)).toEqual([all[4]]);
  });

  it("joins the caller's transaction: a rollback takes the events with it", async () => {
    const { lastSeq } = await eventBounds(sql);
    await expect(
      sql.transaction(async (tx) => {
        await appendEvents(tx, [{ type: 'certificate.updated', countySlug: 'leon', data: data('x') }]);
        throw new Error('bookkeeping failed');
      }),
    ).rejects.toThrow('bookkeeping failed');
    expect(await eventsAfter(sql, { viewer, afterSeq: lastSeq }, 10)).toEqual([]);
  });

  it("reads a saved search's newest events for its owner: both the client and the search must match", async () => {
    const mine = { clientId: 'cl_a', savedSearchId: 'ss_mine' };
    const match = (owner: typeof mine, id: string) =>
      ({ type: 'saved_search.match_added', countySlug: 'lee', data: data(id), owner }) as const;
    const ids = await appendEvents(sql, [
      match(mine, 'first'),
      match({ clientId: 'cl_a', savedSearchId: 'ss_other' }, 'other search'),
      match({ clientId: 'cl_b', savedSearchId: 'ss_mine' }, 'other client'),
      { type: 'certificate.created', countySlug: 'lee', data: data('public') },
      match(mine, 'second'),
      match(mine, 'third'),
    ]);
    const recent = await recentSavedSearchEvents(sql, mine, 2);
    expect(recent.map((e) => e.data.object.id)).toEqual(['third', 'second']);
    expect(recent.map((e) => e.seq)).toEqual([ids[5], ids[4]]);
    expect(recent[0]).toMatchObject({ type: 'saved_search.match_added', countySlug: 'lee', owner: mine });
    expect((await recentSavedSearchEvents(sql, mine, 10)).map((e) => e.data.object.id)).toEqual(['third', 'second', 'first']);
    expect(await recentSavedSearchEvents(sql, { clientId: 'cl_c', savedSearchId: 'ss_mine' }, 10)).toEqual([]);
  });

  it('records a coverage move as county.coverage_changed with the changed fields, and a count alone as nothing', async () => {
    const { lastSeq } = await eventBounds(sql);
    await updateCountyCoverage(sql, 'gulf', { certificateCount: 3, lastImportAt: '2026-01-01T00:00:00.000Z' });
    await updateCountyCoverage(sql, 'gulf', { certificateCount: 4 });
    const events = await eventsAfter(sql, { viewer, afterSeq: lastSeq }, 10);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'county.coverage_changed', countySlug: 'gulf' });
    expect(events[0]!.data.object).toMatchObject({ countySlug: 'gulf', coverageStatus: 'certificate_level', certificateCount: 3 });
    expect(events[0]!.data.previous).toMatchObject({ coverageStatus: 'directory_only', certificateCount: 0, lastImportAt: null });
  });
});

describe('event stage', () => {
  const run = { jobId: 'job-1', fileSha256: 'sha-a', countySlug: 'alachua', taxYear: 2024 };

  it('stages, completes and publishes once, dropping refused documents and rewriting a type', async () => {
    expect(await openStage(sql, run)).toBe('fresh');
    await addStaged(sql, run.jobId, [
      { type: 'certificates.loaded', countySlug: 'alachua', docId: null, data: data('loaded') },
      { type: 'certificate.redeemed', countySlug: 'alachua', docId: 'cert_1', data: data('cert_1') },
      { type: 'certificate.redeemed', countySlug: 'alachua', docId: 'cert_2', data: data('cert_2') },
    ]);
    expect(await stagedJobs(sql)).toEqual([{ jobId: 'job-1', complete: false, events: 3 }]);
    // Not complete: a retry of the same file starts over.
    expect(await openStage(sql, run)).toBe('fresh');
    expect(await stagedJobs(sql)).toEqual([{ jobId: 'job-1', complete: false, events: 0 }]);
    await addStaged(sql, run.jobId, [
      { type: 'certificates.loaded', countySlug: 'alachua', docId: null, data: data('loaded') },
      { type: 'certificate.redeemed', countySlug: 'alachua', docId: 'cert_1', data: data('cert_1') },
      { type: 'certificate.redeemed', countySlug: 'alachua', docId: 'cert_2', data: data('cert_2') },
    ]);
    expect(await completeStage(sql, run.jobId)).toBe(3);
    expect(await openStage(sql, run)).toBe('staged');
    expect(await stagedData(sql, run.jobId, 'certificates.loaded')).toEqual(data('loaded'));
    expect(await stagedData(sql, run.jobId, 'certificate.cancelled')).toBeNull();

    const { lastSeq } = await eventBounds(sql);
    const rewritten = { object: { id: 'loaded', count: 2 }, previous: {} };
    expect(await publishStage(sql, run.jobId, { refused: new Set(['cert_2']), rewrite: { 'certificates.loaded': rewritten } })).toBe(2);
    const published = await eventsAfter(sql, { viewer, afterSeq: lastSeq }, 10);
    expect(published.map((e) => [e.type, e.data])).toEqual([
      ['certificates.loaded', rewritten],
      ['certificate.redeemed', data('cert_1')],
    ]);
    expect(await publishStage(sql, run.jobId)).toBe(0);
    expect(await stagedJobs(sql)).toEqual([]);
  });

  it('drops at publish the staged events of a portfolio deleted since, or of a position removed from it', async () => {
    const owner = 'cli_tablesportfolio';
    await sql.run('INSERT INTO clients (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [owner, 'p', 'growth', new Date().toISOString()]);
    for (const pf of ['pf_kept', 'pf_gone'])
      await sql.run('INSERT INTO portfolios (id, client_id, name) VALUES (?, ?, ?)', [pf, owner, pf]);
    for (const [pos, pf] of [
      ['pos_kept', 'pf_kept'],
      ['pos_removed', 'pf_kept'],
      ['pos_gone', 'pf_gone'],
    ])
      await sql.run(
        'INSERT INTO portfolio_positions (id, portfolio_id, certificate_id, county_slug, certificate_number, tax_year) VALUES (?, ?, ?, ?, ?, ?)',
        [pos, pf, `cert_${pos}`, 'alachua', pos, 2023],
      );
    const held = (portfolioId: string, positionId?: string) => ({
      type: 'portfolio.position_changed' as const,
      countySlug: 'alachua',
      docId: 'cert_p',
      data: { ...data(`${portfolioId}/${positionId ?? 'group'}`), portfolio: { id: portfolioId, name: portfolioId } },
      owner: { clientId: owner, portfolioId, ...(positionId ? { positionId } : {}) },
    });
    const job = { ...run, jobId: 'job-portfolio' };
    expect(await openStage(sql, job)).toBe('fresh');
    await addStaged(sql, job.jobId, [
      { type: 'certificate.redeemed', countySlug: 'alachua', docId: 'cert_p', data: data('cert_p') },
      held('pf_kept', 'pos_kept'),
      held('pf_kept', 'pos_removed'),
      held('pf_kept'),
      held('pf_gone', 'pos_gone'),
      held('pf_gone'),
    ]);
    await completeStage(sql, job.jobId);
    await sql.run("DELETE FROM portfolio_positions WHERE id = 'pos_removed'");
    await sql.run("DELETE FROM portfolios WHERE id = 'pf_gone'");
    const { lastSeq } = await eventBounds(sql);
    expect(await publishStage(sql, job.jobId)).toBe(3);
    const published = await eventsAfter(sql, { viewer: owner, afterSeq: lastSeq }, 10);
    expect(published.map((e) => [e.type, e.data.object.id, e.owner ?? null])).toEqual([
      ['certificate.redeemed', 'cert_p', null],
      ['portfolio.position_changed', 'pf_kept/pos_kept', { clientId: owner, portfolioId: 'pf_kept' }],
      ['portfolio.position_changed', 'pf_kept/group', { clientId: owner, portfolioId: 'pf_kept' }],
    ]);
    // Another client sees the public event only.
    expect((await eventsAfter(sql, { viewer, afterSeq: lastSeq }, 10)).map((e) => e.type)).toEqual(['certificate.redeemed']);
  });

  it('throws away a stage of other bytes, an empty one, a discarded one and an old one', async () => {
    expect(await openStage(sql, { ...run, jobId: 'job-2' })).toBe('fresh');
    await addStaged(sql, 'job-2', [{ type: 'certificate.updated', countySlug: 'alachua', docId: 'cert_3', data: data('cert_3') }]);
    await completeStage(sql, 'job-2');
    expect(await openStage(sql, { ...run, jobId: 'job-2', fileSha256: 'sha-b' })).toBe('fresh');
    expect(await completeStage(sql, 'job-2')).toBe(0);
    expect(await stagedJobs(sql)).toEqual([]);

    await openStage(sql, { ...run, jobId: 'job-3' });
    await discardStage(sql, 'job-3');
    expect(await stagedJobs(sql)).toEqual([]);

    await openStage(sql, { ...run, jobId: 'job-4' });
    await sql.run("UPDATE event_stage_runs SET created_at = '2020-01-01T00:00:00.000Z' WHERE job_id = 'job-4'");
    await openStage(sql, { ...run, jobId: 'job-5' });
    expect(await pruneStages(sql, '2021-01-01T00:00:00.000Z')).toBe(1);
    expect((await stagedJobs(sql)).map((j) => j.jobId)).toEqual(['job-5']);
  });
});

describe('sale statuses and freshness', () => {
  it('announces a sale once and records the status told', async () => {
    const sale = { saleId: 'sale_alachua_2024', countySlug: 'alachua', taxYear: 2024 };
    expect(await getSaleSeen(sql, sale.saleId)).toBeNull();
    await announceSale(sql, sale);
    expect(await getSaleSeen(sql, sale.saleId)).toEqual({ ...sale, status: null });
    await setSaleSeen(sql, { ...sale, status: 'scheduled' });
    await announceSale(sql, sale);
    expect(await getSaleSeen(sql, sale.saleId)).toEqual({ ...sale, status: 'scheduled' });
    await setSaleSeen(sql, { ...sale, status: 'completed' });
    expect((await getSaleSeen(sql, sale.saleId))?.status).toBe('completed');
  });

  it('keeps the later ingest time whatever order the jobs finish in', async () => {
    await markIngested(sql, 'holders', '2026-03-02T00:00:00.000Z');
    await markIngested(sql, 'holders', '2026-03-01T00:00:00.000Z');
    expect((await getDatasetState(sql, 'holders')).lastIngestedAt).toBe('2026-03-02T00:00:00.000Z');
    await markIngested(sql, 'holders', '2026-03-03T00:00:00.000Z');
    expect((await getDatasetState(sql, 'holders')).lastIngestedAt).toBe('2026-03-03T00:00:00.000Z');
  });
});
