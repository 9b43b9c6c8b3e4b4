// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCertificate } from '../../../../services/api/routes/certificates/read.ts';
import { searchSales } from '../../../../services/api/routes/certificate-sales/read.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { getCounty } from '../../../../services/control/ingest/counties.ts';
import { stagedJobs } from '../../../../services/control/feed/event-stage.ts';
import type { StoredEvent } from '../../../../services/control/feed/events.ts';
import { childEnv, runCli } from '../../../helpers/cli.ts';
import { alachuaCertificates, alachuaJob, eventsSince, lastEventSeq, writeAlachuaFile } from '../../../helpers/event-files.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * The change feed as ingests through the real queue and worker record it, on the real engine and
 * control plane. Each object must be the row the API answers for the same id right after the job
 * (the same mapper), previous the fields that changed.
 */

const N = 150;
const FLIPPED = 100;

describe('events recorded by the certificate ingest that makes a change visible', () => {
  let t: TestRuntime;
  let dir: string;
  /** The redeeming file, ingested twice. */
  let redeeming: string;
  const ingest = async (file: string) => {
    const [outcome] = await enqueueFiles(t.runtime, [alachuaJob(file)], { wait: true });
    expect(outcome?.status, outcome?.error).toBe('succeeded');
  };
  const apiRow = async (id: string) => (await readCertificate(t.runtime, { id })).data;
  const recordedSince = async (seq: number, file: string): Promise<StoredEvent[]> => {
    await ingest(file);
    return await eventsSince(t.runtime.sql, seq);
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-events-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('a first load records one certificates.loaded, the coverage move and the sale creation, and nothing per row', async () => {
    const file = await writeAlachuaFile(dir, 'first.csv', alachuaCertificates(N));
    const events = await recordedSince(0, file);
    expect(events.map((e) => e.type)).toEqual(['certificates.loaded', 'county.coverage_changed', 'certificate_sale.created']);
    expect(events.every((e) => e.countySlug === 'alachua')).toBe(true);

    const [loaded, coverage, sale] = events as [StoredEvent, StoredEvent, StoredEvent];
    expect(loaded.data).toEqual({ object: { county_slug: 'alachua', county_name: 'Alachua', tax_year: 2023, count: N }, previous: {} });
    // The county as GET /counties/alachua answers it, and its one move (a first ingest registers the source too).
    expect(coverage.data.object).toEqual(await getCounty(t.runtime.sql, 'alachua'));
    expect(coverage.data.previous).toMatchObject({ coverageStatus: 'directory_only', certificateCount: 0, lastImportAt: null });
    // The sale as /certificate-sales/search renders it.
    const sales = await searchSales(t.runtime, { county: ['alachua'], limit: 25, offset: 0 });
    expect(sale.data).toEqual({ object: sales.rows[0], previous: {} });
    expect(await stagedJobs(t.runtime.sql)).toEqual([]);
  });

  it(`a file that flips ${FLIPPED} certificates to redeemed records exactly ${FLIPPED} certificate.redeemed, each with previous.status`, async () => {
    const before = await lastEventSeq(t.runtime.sql);
    const records = alachuaCertificates(N, FLIPPED);
    redeeming = await writeAlachuaFile(dir, 'redeemed.csv', records);
    const events = await recordedSince(before, redeeming);
    expect(events).toHaveLength(FLIPPED);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['certificate.redeemed']));
    expect(events.map((e) => e.data.object.id).sort()).toEqual(
      records
        .slice(0, FLIPPED)
        .map((r) => r.id)
        .sort(),
    );
    for (const e of events)
      expect(e.data.previous).toEqual({ status: 'sold', redeemed: false, redeemed_date: null, redemption_amount: null });
    // Exactly the rows GET /certificates/{id} answers now.
    for (const e of events.slice(0, 10)) expect(e.data.object).toEqual(await apiRow(e.data.object.id as string));
    // Ids increase with no gap: one transaction gave them all.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => before + 1 + i));
  });

  it('the same file again records none', async () => {
    const before = await lastEventSeq(t.runtime.sql);
    expect(await recordedSince(before, redeeming)).toEqual([]);
  });

  it('a reindex of every dataset records none, and the file once more after it records none either', async () => {
    const before = await lastEventSeq(t.runtime.sql);
    const reindexed = await runCli(['--json', 'reindex', '--dataset', 'all'], childEnv(t.config));
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(await eventsSince(t.runtime.sql, before)).toEqual([]);
    expect(await recordedSince(before, redeeming)).toEqual([]);
  });

  it('a certificate new to the loaded county-year is certificate.created; other public fields are certificate.updated', async () => {
    const before = await lastEventSeq(t.runtime.sql);
    const records = alachuaCertificates(N, FLIPPED);
    records[FLIPPED + 1] = sampleCertificate({ owner_name: 'NEW OWNER LLC' }, FLIPPED + 1);
    const added = sampleCertificate({}, N);
    const events = await recordedSince(before, await writeAlachuaFile(dir, 'one-more.csv', [...records, added]));
    expect(events.map((e) => [e.type, e.data.object.id])).toEqual(
      expect.arrayContaining([
        ['certificate.updated', records[FLIPPED + 1]!.id],
        ['certificate.created', added.id],
      ]),
    );
    expect(events).toHaveLength(2);
    const updated = events.find((e) => e.type === 'certificate.updated')!;
    expect(updated.data.previous).toEqual({ owner_name: alachuaCertificates(N)[FLIPPED + 1]!.owner_name });
    expect(events.find((e) => e.type === 'certificate.created')!.data).toEqual({ object: await apiRow(added.id), previous: {} });
  });
});
