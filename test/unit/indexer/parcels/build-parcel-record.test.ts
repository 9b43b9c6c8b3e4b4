import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readParcelRows, toParcelInput } from '../../../../indexer/adapters/parcels-csv.ts';
import { PARCELS_HEADER } from '../../../../services/formats/parcels-csv.ts';
import type { RawRow } from '../../../../indexer/adapters/types.ts';
import { buildParcelRecord } from '../../../../indexer/parcels/build-parcel-record.ts';
import { distanceKm, loadCountyCentroids, parcelRadiusKm } from '../../../../services/domain/county-centroids.ts';
import { registry } from '../../../helpers/registry.ts';

const AT = '2026-03-01T12:00:00.000Z';
const centroids = loadCountyCentroids();

function context(slug: string) {
  const county = registry.county(slug)!;
  return { county, counties: registry.counties, centroid: centroids.get(slug)!, ingestedAt: AT };
}

async function rows(lines: string[]): Promise<RawRow[]> {
  const out: RawRow[] = [];
  for await (const r of readParcelRows(Readable.from([`${[PARCELS_HEADER.join(','), ...lines].join('\n')}\n`]))) out.push(r);
  return out;
}

async function build(line: string, slug = 'miami-dade') {
  const [row] = await rows([line]);
  return buildParcelRecord(toParcelInput(row!), context(slug));
}

const GOOD = '23,01-3125-041-0010,2025,350000,7500,001,Y,"123 NW 5TH ST",miami  gardens,33169,25.9420,-80.2456';

describe('parcels-csv rows into parcel records', () => {
  it('builds a good row: id by county and normalized parcel, city upper case, location', async () => {
    expect(await build(GOOD)).toEqual({
      ok: true,
      record: {
        id: 'miami-dade:0131250410010',
        county_slug: 'miami-dade',
        county_name: 'Miami-Dade',
        parcel_id: '01-3125-041-0010',
        parcel_id_normalized: '0131250410010',
        assessment_year: 2025,
        just_value: 350000,
        land_sqft: 7500,
        use_code: '001',
        homestead: true,
        situs_address: '123 NW 5TH ST',
        situs_city: 'MIAMI GARDENS',
        situs_zip: '33169',
        location: { lat: 25.942, lon: -80.2456 },
        ingested_at: AT,
      },
    });
  });

  it('quarantines a row of another county, naming it', async () => {
    const built = await build(GOOD.replace(/^23,/, '16,'));
    expect(built).toEqual({
      ok: false,
      reasons: [
        { field: 'county_number', problem: '"16" (Broward, revenue county 16) is not this file\'s county Miami-Dade (revenue county 23)' },
      ],
    });
  });

  it('quarantines a centroid outside Florida (a dropped minus sign)', async () => {
    const built = await build(GOOD.replace('-80.2456', '80.2456'));
    expect(built).toEqual({
      ok: false,
      reasons: [{ field: 'location', problem: '25.942,80.2456 is outside Florida (lat 24.3..31.1, lon -87.7..-79.8)' }],
    });
  });

  it("quarantines a centroid in Florida but beyond the county's radius (a Pensacola point in Miami-Dade)", async () => {
    const built = await build(GOOD.replace('25.9420,-80.2456', '30.4213,-87.2169'));
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.reasons).toHaveLength(1);
    expect(built.reasons[0]?.field).toBe('location');
    expect(built.reasons[0]?.problem).toMatch(/^30.4213,-87.2169 is \d+ km from Miami-Dade County's interior point, more than its 120 km$/);
  });

  it("keeps Monroe's keys, Key West and the Dry Tortugas, within Monroe's radius", async () => {
    const monroe = (lat: string, lon: string) => `54,00001-000000,2025,100,100,000,N,1 FRONT ST,key west,33040,${lat},${lon}`;
    expect((await build(monroe('24.5551', '-81.7800'), 'monroe')).ok).toBe(true);
    expect((await build(monroe('24.6285', '-82.8732'), 'monroe')).ok).toBe(true);
    expect(parcelRadiusKm('monroe')).toBeGreaterThan(distanceKm(centroids.get('monroe')!, { lat: 24.6285, lon: -82.8732 }));
  });

  it('lists every bad field of a row: homestead, use code, ZIP, numbers, year, coordinates', async () => {
    const built = await build('23,01-1,25,3.5e5,-7,1,yes,1 A ST,MIAMI,3316,north,-80.2');
    expect(built).toEqual({
      ok: false,
      reasons: [
        { field: 'assessment_year', problem: '"25" is not a four-digit year' },
        { field: 'just_value', problem: '"3.5e5" is not a whole non-negative number' },
        { field: 'land_sqft', problem: '"-7" is not a whole non-negative number' },
        { field: 'use_code', problem: '"1" is not a three-digit use code' },
        { field: 'homestead', problem: '"yes" is not Y or N' },
        { field: 'situs_zip', problem: '"3316" is not a five-digit ZIP code' },
        { field: 'lat', problem: '"north" is not decimal degrees' },
      ],
    });
  });

  it('requires every field', async () => {
    const built = await build('23,01-1,2025,,7500,001,N,1 A ST,MIAMI,33169,25.9,');
    expect(built).toEqual({
      ok: false,
      reasons: [
        { field: 'just_value', problem: 'required' },
        { field: 'lon', problem: 'required' },
      ],
    });
  });

  it('passes a short row on as a row problem', async () => {
    const [row] = await rows(['23,01-1,2025']);
    const built = buildParcelRecord(toParcelInput(row!), context('miami-dade'));
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.reasons.map((r) => r.field)).toEqual(['row']);
  });
});
