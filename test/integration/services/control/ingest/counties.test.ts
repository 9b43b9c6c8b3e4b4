// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COVERAGE_STATUSES,
  CountySchema,
  deriveCoverageStatus,
  getCounty,
  listCounties,
  refreshCoverage,
  seedCounties,
  UnknownCountyError,
  updateCountyCoverage,
} from '../../../../../services/control/ingest/counties.ts';
import { openControlPlane } from '../../../../../services/control/control-plane.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { testTarget } from '../../../../helpers/control.ts';
import { upsertSource } from '../../../../../services/control/ingest/sources.ts';
import { loadRegistry } from '../../../../../services/domain/registry.ts';
import { testContext } from '../../../../helpers/context.ts';
import { registry } from '../../../../helpers/registry.ts';

const ctx = testContext(import.meta.url);
// One target opened twice (the reseed test reopens it): a file, or a PostgreSQL database.
const target = testTarget(ctx.config.DATABASE_PATH, 'counties');
let db: Sql;
beforeAll(async () => {
  db = await openControlPlane(target.target, { registry });
});
afterAll(async () => {
  await db.close();
  target.drop();
  ctx.cleanupFiles();
});

const fields = [
  'id',
  'countyName',
  'countySlug',
  'countyFips',
  'dorCountyNumber',
  'propertyAppraiserUrl',
  'taxCollectorUrl',
  'taxCertificateSaleUrl',
  'taxCertificateVendor',
  'coverageStatus',
  'certificateCount',
  'lastImportAt',
  'createdAt',
  'updatedAt',
];

describe('county directory', () => {
  it('seeds all 67 counties alphabetically with every spec 2.6 field', async () => {
    const counties = await listCounties(db);
    expect(counties).toHaveLength(67);
    const names = counties.map((c) => c.countyName);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    for (const c of counties) {
      expect(Object.keys(c).sort()).toEqual([...fields].sort());
      expect(CountySchema.parse(c)).toEqual(c);
      expect(c.countyFips).toMatch(/^12\d{3}$/);
      expect(typeof c.dorCountyNumber).toBe('string');
      expect(c.dorCountyNumber).toMatch(/^\d{2}$/);
      expect(c.propertyAppraiserUrl).toBeNull();
      expect(c.taxCollectorUrl).toBeNull();
      expect(c.coverageStatus).toBe('directory_only');
      expect(c.certificateCount).toBe(0);
      expect(c.lastImportAt).toBeNull();
    }
  });

  it('has Miami-Dade under the slug miami-dade, with its registry channel and sale URL', async () => {
    const registry = loadRegistry();
    const county = await getCounty(db, 'miami-dade');
    expect(county).toMatchObject({ countyName: 'Miami-Dade', countyFips: '12086' });
    const channel = registry.channel(registry.county('miami-dade')!);
    expect(county?.taxCertificateVendor).toBe(channel?.channel ?? null);
    expect(county?.taxCertificateSaleUrl).toBe(channel?.saleUrl ?? null);
    expect(await getCounty(db, 'atlantis')).toBeNull();
  });

  it('reseeding changes nothing and never resets coverage', async () => {
    await updateCountyCoverage(db, 'leon', { certificateCount: 12, lastImportAt: '2026-01-02T03:04:05.000Z' });
    const before = await getCounty(db, 'leon');
    expect(await seedCounties(db, loadRegistry())).toBe(0);
    const reopened = await openControlPlane(target.target, { registry });
    expect(await getCounty(reopened, 'leon')).toEqual(before);
    expect(await listCounties(reopened)).toHaveLength(67);
    await reopened.close();
  });

  it('reseeding updates a changed directory fact', async () => {
    await db.run("UPDATE counties SET county_fips = '12999' WHERE county_slug = 'bay'");
    expect(await seedCounties(db, loadRegistry())).toBe(1);
    expect((await getCounty(db, 'bay'))?.countyFips).toBe('12005');
  });
});

describe('coverage status', () => {
  it('derives the three states', async () => {
    expect(deriveCoverageStatus(5, false)).toBe('certificate_level');
    expect(deriveCoverageStatus(5, true)).toBe('certificate_level');
    expect(deriveCoverageStatus(0, true)).toBe('vendor_tracked');
    expect(deriveCoverageStatus(0, false)).toBe('directory_only');
    expect(COVERAGE_STATUSES).toHaveLength(3);
  });

  it('directory_only -> vendor_tracked -> certificate_level -> back as the data changes', async () => {
    expect((await getCounty(db, 'alachua'))?.coverageStatus).toBe('directory_only');

    await upsertSource(db, registry, { countySlug: 'alachua', taxYear: 2025, vendor: 'lienport', sourceKind: 'cert_sale_portal' });
    expect((await getCounty(db, 'alachua'))?.coverageStatus).toBe('vendor_tracked');

    const at = new Date('2026-06-01T12:00:00Z');
    const updated = await updateCountyCoverage(db, 'alachua', { certificateCount: 1500, lastImportAt: at });
    expect(updated).toMatchObject({ coverageStatus: 'certificate_level', certificateCount: 1500, lastImportAt: at.toISOString() });

    // Omitting lastImportAt keeps it; a count of 0 falls back to the source rule.
    expect(await updateCountyCoverage(db, 'alachua', { certificateCount: 0 })).toMatchObject({
      coverageStatus: 'vendor_tracked',
      lastImportAt: at.toISOString(),
    });

    await upsertSource(db, registry, {
      countySlug: 'alachua',
      taxYear: 2025,
      vendor: 'lienport',
      sourceKind: 'cert_sale_portal',
      active: false,
    });
    expect((await getCounty(db, 'alachua'))?.coverageStatus).toBe('directory_only');
  });

  it('an inactive source does not make a county vendor_tracked; refreshCoverage recomputes after a direct change', async () => {
    await upsertSource(db, registry, {
      countySlug: 'baker',
      taxYear: 2025,
      vendor: 'lienport',
      sourceKind: 'cert_sale_portal',
      active: false,
    });
    expect((await getCounty(db, 'baker'))?.coverageStatus).toBe('directory_only');
    await db.run('UPDATE sources SET active = 1 WHERE county_id = (SELECT id FROM counties WHERE county_slug = ?)', ['baker']);
    expect((await refreshCoverage(db, 'baker')).coverageStatus).toBe('vendor_tracked');
  });

  it('refuses unknown counties and bad counts', async () => {
    await expect(updateCountyCoverage(db, 'atlantis', { certificateCount: 1 })).rejects.toThrow(UnknownCountyError);
    await expect(refreshCoverage(db, 'atlantis')).rejects.toThrow(UnknownCountyError);
    await expect(updateCountyCoverage(db, 'bay', { certificateCount: -1 })).rejects.toThrow(RangeError);
    await expect(updateCountyCoverage(db, 'bay', { certificateCount: 1, lastImportAt: 'yesterday' })).rejects.toThrow(RangeError);
  });
});
