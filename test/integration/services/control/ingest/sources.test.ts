// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnknownCountyError } from '../../../../../services/control/ingest/counties.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { openTestControl } from '../../../../helpers/control.ts';
import {
  getSource,
  InvalidSourceError,
  listSources,
  recordCheck,
  SourceSchema,
  sourcesForCounty,
  UnknownSourceError,
  upsertSource,
} from '../../../../../services/control/ingest/sources.ts';
import { testContext } from '../../../../helpers/context.ts';
import { registry } from '../../../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
let db: Sql;
beforeAll(async () => {
  db = await openTestControl({ path: ctx.config.DATABASE_PATH, registry, label: 'sources' });
  const rows: [string, number, string, string, boolean][] = [
    ['alachua', 2023, 'lienport', 'cert_sale_portal', true],
    ['alachua', 2024, 'lienport', 'cert_sale_portal', true],
    ['alachua', 2025, 'lienport', 'bulk_download', true],
    ['bay', 2025, 'certbid', 'cert_sale_portal', true],
    ['citrus', 2025, 'county_local', 'bulk_download', false],
    ['glades', 2025, 'manual', 'cert_sale_portal', true],
    ['miami-dade', 2024, 'certbid', 'cert_sale_portal', false],
    ['miami-dade', 2025, 'certbid', 'cert_sale_portal', true],
  ];
  for (const [countySlug, taxYear, vendor, sourceKind, active] of rows)
    await upsertSource(db, registry, { countySlug, taxYear, vendor, sourceKind, active });
});
afterAll(async () => {
  await db.close();
  ctx.cleanupFiles();
});

describe('sources', () => {
  it('keeps one row per county and tax year: a second upsert updates it', async () => {
    const first = (await getSource(db, 'bay', 2025))!;
    const again = await upsertSource(db, registry, {
      countySlug: 'bay',
      taxYear: 2025,
      vendor: 'certbid',
      sourceKind: 'cert_sale_portal',
      saleUrl: 'https://www.certbid.com/fl/bay',
      requiresLogin: true,
      notes: 'registration opens in April',
    });
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ saleUrl: 'https://www.certbid.com/fl/bay', requiresLogin: true, active: true });
    expect(await sourcesForCounty(db, 'bay')).toHaveLength(1);
    expect(SourceSchema.parse(again)).toEqual(again);

    // Omitted optional fields keep their stored values.
    const partial = await upsertSource(db, registry, {
      countySlug: 'bay',
      taxYear: 2025,
      vendor: 'certbid',
      sourceKind: 'cert_sale_portal',
    });
    expect(partial).toMatchObject({ saleUrl: 'https://www.certbid.com/fl/bay', requiresLogin: true, notes: 'registration opens in April' });
    expect(await db.get('SELECT count(*) AS n FROM sources')).toEqual({ n: 8 });
  });

  it('lists a county newest tax year first, with county id and slug', async () => {
    const rows = await sourcesForCounty(db, 'alachua');
    expect(rows.map((r) => r.taxYear)).toEqual([2025, 2024, 2023]);
    expect(rows.every((r) => r.countySlug === 'alachua' && r.countyId === rows[0]!.countyId)).toBe(true);
    expect(await sourcesForCounty(db, 'leon')).toEqual([]);
  });

  it('filters: vendor contains (case-insensitive), county, source kind, active', async () => {
    expect((await listSources(db, { vendor: 'CERT' })).rows.map((r) => r.vendor)).toEqual(['certbid', 'certbid', 'certbid']);
    expect((await listSources(db, { vendor: 'local' })).rows.map((r) => r.countySlug)).toEqual(['citrus']);
    expect((await listSources(db, { vendor: '%' })).total).toBe(0);
    expect((await listSources(db, { county: 'miami-dade' })).total).toBe(2);
    expect((await listSources(db, { sourceKind: 'bulk_download' })).rows.map((r) => r.countySlug)).toEqual(['alachua', 'citrus']);
    expect((await listSources(db, { active: false })).rows.map((r) => `${r.countySlug}/${r.taxYear}`)).toEqual([
      'citrus/2025',
      'miami-dade/2024',
    ]);
    expect((await listSources(db, { active: true })).total).toBe(6);
    expect((await listSources(db, { vendor: 'certbid', active: true })).total).toBe(2);
  });

  it('pages with a total of all matches', async () => {
    const all = await listSources(db);
    expect(all.total).toBe(8);
    expect(all.rows.map((r) => r.countySlug)).toEqual([
      'alachua',
      'alachua',
      'alachua',
      'bay',
      'citrus',
      'glades',
      'miami-dade',
      'miami-dade',
    ]);
    const page = await listSources(db, { limit: 3, offset: 3 });
    expect(page.total).toBe(8);
    expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(3, 6).map((r) => r.id));
    expect(await listSources(db, { limit: 3, offset: 9 })).toEqual({ rows: [], total: 8 });
    await expect(listSources(db, { limit: -1 })).rejects.toThrow(RangeError);
  });

  it('records checks: success clears the error, failure keeps the last success', async () => {
    const ok = await recordCheck(db, 'glades', 2025, { ok: true, at: '2026-03-01T00:00:00Z' });
    expect(ok).toMatchObject({ lastCheckedAt: '2026-03-01T00:00:00.000Z', lastSuccessAt: '2026-03-01T00:00:00.000Z', lastError: null });
    const failed = await recordCheck(db, 'glades', 2025, { ok: false, error: 'HTTP 503', at: new Date('2026-03-02T00:00:00Z') });
    expect(failed).toMatchObject({
      lastCheckedAt: '2026-03-02T00:00:00.000Z',
      lastSuccessAt: '2026-03-01T00:00:00.000Z',
      lastError: 'HTTP 503',
    });
    expect((await recordCheck(db, 'glades', 2025, { ok: true, at: '2026-03-03T00:00:00Z' })).lastError).toBeNull();
    await expect(recordCheck(db, 'glades', 1999, { ok: true, at: new Date() })).rejects.toThrow(UnknownSourceError);
  });

  it('refuses unknown counties, vendors outside the registry and bad years', async () => {
    const base = { taxYear: 2025, vendor: 'lienport', sourceKind: 'cert_sale_portal' };
    await expect(upsertSource(db, registry, { ...base, countySlug: 'atlantis' })).rejects.toThrow(UnknownCountyError);
    await expect(upsertSource(db, registry, { ...base, countySlug: 'leon', vendor: 'ebay' })).rejects.toThrow(InvalidSourceError);
    await expect(upsertSource(db, registry, { ...base, countySlug: 'leon', taxYear: 25 })).rejects.toThrow(InvalidSourceError);
    expect(await sourcesForCounty(db, 'leon')).toEqual([]);
  });
});
