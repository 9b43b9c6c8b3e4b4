import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateRecord } from '../../../../../../../services/domain/records.ts';
import { generateState } from '../../../../../../../services/generator/generate-state.ts';
import { Prng } from '../../../../../../../services/generator/prng.ts';
import { openSeededApi, type SeededApi } from '../../analytics/seeded-api.ts';
import { expectedIds, haversineMeters, type Located, withinBox, withinPolygon, withinRadius } from './independent.ts';

/**
 * The geo filters, distance sort, geo-grid and GeoJSON on a 3-shard index of a generated market
 * whose certificates carry parcel facts (four clusters of points, a fifth of them without a
 * parcel row), against an independent computation over the same raw rows (independent.ts).
 */

type Row = CertificateRecord & {
  location?: Located;
  just_value?: number;
  homestead?: boolean;
  use_code?: string;
  owner_type: 'entity' | 'person';
};

const TODAY = '2026-11-22';
const CENTERS: Located[] = [
  { lat: 26.64, lon: -81.87 },
  { lat: 26.12, lon: -80.14 },
  { lat: 25.77, lon: -80.19 },
  { lat: 27.95, lon: -82.46 },
];

/** Parcel facts for most rows, clustered around the centers as towns cluster parcels. */
function withParcels(records: readonly CertificateRecord[]): Row[] {
  const rng = new Prng(39);
  const next = () => rng.next();
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return records.map((r, i) => {
    const owner_type = next() < 0.3 ? 'entity' : 'person';
    if (next() < 0.2) return { ...r, owner_type };
    const c = CENTERS[i % CENTERS.length]!;
    const round = (x: number) => Math.round(x * 1e6) / 1e6;
    return {
      ...r,
      owner_type,
      location: { lat: round(c.lat + normal() * 0.06), lon: round(c.lon + normal() * 0.06) },
      just_value: 20_000 + Math.floor(next() * 480_000),
      land_sqft: 2000 + Math.floor(next() * 20_000),
      use_code: ['000', '001', '004', '100'][Math.floor(next() * 4)]!,
      homestead: next() < 0.4,
      assessment_year: 2025,
      parcel_address: `${i} MAIN ST`,
      situs_city: ['FORT MYERS', 'FORT LAUDERDALE', 'MIAMI', 'TAMPA'][i % 4]!,
      situs_zip: ['33901', '33301', '33101', '33602'][i % 4]!,
    };
  });
}

let api: SeededApi;
let rows: Row[];
const byId = new Map<string, Row>();

beforeAll(async () => {
  rows = withParcels([...generateState({ certificates: 4000, seed: 39, today: TODAY }).allRecords()]);
  for (const r of rows) byId.set(r.id, r);
  api = await openSeededApi(import.meta.url, rows);
});
afterAll(async () => {
  await api?.close();
});

async function get(url: string) {
  const res = await api.app.inject({ method: 'GET', url, headers: api.auth });
  return { status: res.statusCode, body: res.json(), type: String(res.headers['content-type']) };
}

/** Every id a search returns, page by page. */
async function allIds(params: string): Promise<{ ids: string[]; total: number }> {
  const ids: string[] = [];
  let total = 0;
  for (let offset = 0; ; offset += 500) {
    const res = await get(`/api/v1/certificates/search?${params}&limit=500&offset=${offset}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    total = res.body.pagination.total;
    ids.push(...res.body.data.map((r: { id: string }) => r.id));
    if (!res.body.pagination.has_more) break;
  }
  expect(ids).toHaveLength(total);
  return { ids, total };
}

/** The search's ids equal the independent set, leaving out the points too close to call. */
async function compare(params: string, expected: { in: Set<string>; close: Set<string> }, least = 20) {
  const { ids } = await allIds(params);
  const got = new Set(ids.filter((id) => !expected.close.has(id)));
  for (const id of got) expect(byId.get(id)?.location, `${id} has no location`).toBeDefined();
  expect([...got].sort()).toEqual([...expected.in].sort());
  expect(expected.in.size).toBeGreaterThanOrEqual(least);
}

describe('geo filters against an independent computation', () => {
  it('bbox', async () => {
    const box = { minLon: -80.2, minLat: 26.05, maxLon: -80.08, maxLat: 26.2 };
    await compare(
      `bbox=-80.2,26.05,-80.08,26.2`,
      expectedIds(rows, (p) => withinBox(p, box)),
    );
  });

  it('near and radius (haversine)', async () => {
    const center = { lat: 26.64, lon: -81.87 };
    await compare(
      'near=26.64,-81.87&radius=5km',
      expectedIds(rows, (p) => withinRadius(p, center, 5000)),
    );
  });

  it('the newcomer question: unredeemed non-homestead within 3 miles, worth over $150,000', async () => {
    const center = { lat: 26.12, lon: -80.14 };
    await compare(
      'near=26.12,-80.14&radius=3mi&redeemed=false&homestead=false&just_value_min=150001',
      expectedIds(
        rows,
        (p) => withinRadius(p, center, 3 * 1609.344),
        (r) => !r.redeemed && (r as Row).homestead === false && ((r as Row).just_value ?? 0) > 150_000,
      ),
      3,
    );
  });

  it('a concave polygon (ray casting), given clockwise', async () => {
    const ring = [
      { lat: 25.7, lon: -80.3 },
      { lat: 25.85, lon: -80.28 },
      { lat: 25.78, lon: -80.2 },
      { lat: 25.86, lon: -80.1 },
      { lat: 25.7, lon: -80.12 },
    ];
    const text = ring.map((p) => `${p.lat},${p.lon}`).join(';');
    await compare(
      `polygon=${text}`,
      expectedIds(rows, (p) => withinPolygon(p, ring)),
    );
  });

  it('a certificate without a location matches no geo filter, but the plain ones', async () => {
    const unlocated = rows.filter((r) => !r.location);
    expect(unlocated.length).toBeGreaterThan(100);
    const world = await allIds('bbox=-180,-90,180,90');
    expect(world.total).toBe(rows.length - unlocated.length);
    const persons = await get('/api/v1/certificates/search?owner_type=person&limit=1');
    expect(persons.body.pagination.total).toBe(rows.filter((r) => r.owner_type === 'person').length);
  });
});

describe('distance_asc', () => {
  it('orders every row of the radius nearest first, across pages', async () => {
    const center = { lat: 27.95, lon: -82.46 };
    const { ids } = await allIds('near=27.95,-82.46&radius=8km&sort=distance_asc');
    expect(ids.length).toBeGreaterThan(100);
    const distances = ids.map((id) => haversineMeters(byId.get(id)!.location!, center));
    for (let i = 1; i < distances.length; i++) expect(distances[i]!).toBeGreaterThanOrEqual(distances[i - 1]! - 0.5);
    // Facets ride along the distance page as they do along any page.
    const faceted = await get('/api/v1/certificates/search?near=27.95,-82.46&radius=8km&sort=distance_asc&facets=status,redeemed&limit=3');
    expect(faceted.status).toBe(200);
    const statuses = faceted.body.facets.status.reduce((n: number, b: { count: number }) => n + b.count, 0);
    expect(statuses).toBe(ids.length);
    expect(faceted.body.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 3));
  });

  it('refuses a page past the first 10,000 by naming offset, and a sort without near by naming sort', async () => {
    const deep = await get('/api/v1/certificates/search?near=27.95,-82.46&radius=8km&sort=distance_asc&offset=9990&limit=25');
    expect(deep.status).toBe(400);
    expect(deep.body.error.details.issues[0].parameter).toBe('offset');
    const noNear = await get('/api/v1/certificates/search?sort=distance_asc');
    expect(noNear.status).toBe(400);
    expect(noNear.body.error.details.issues.map((i: { parameter: string }) => i.parameter)).toEqual(['sort']);
  });
});

describe('geo-grid', () => {
  it.each([4, 9, 13])('zoom %i: the cells add up to located, which counts the located rows', async (zoom) => {
    const res = await get(`/api/v1/certificates/geo-grid?zoom=${zoom}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { located, cells } = res.body.data;
    expect(located).toBe(rows.filter((r) => r.location).length);
    expect(cells.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(located);
    const face = rows.filter((r) => r.location).reduce((s, r) => s + r.face_amount, 0);
    const sum = cells.reduce((s: number, c: { face_amount_sum: number }) => s + c.face_amount_sum, 0);
    expect(sum).toBeCloseTo(face, 0);
  });

  it('within filters, located is the search total, and each cell holds its points', async () => {
    const params = 'near=26.64,-81.87&radius=5km&homestead=true';
    const res = await get(`/api/v1/certificates/geo-grid?zoom=12&${params}`);
    const search = await get(`/api/v1/certificates/search?${params}&limit=1`);
    expect(res.body.data.located).toBe(search.body.pagination.total);
    expect(res.body.data.cells.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(res.body.data.located);
    const center = { lat: 26.64, lon: -81.87 };
    for (const cell of res.body.data.cells as { bounds: { top_left: Located; bottom_right: Located } }[]) {
      const { top_left: tl, bottom_right: br } = cell.bounds;
      expect(tl.lat).toBeGreaterThan(br.lat);
      expect(haversineMeters({ lat: (tl.lat + br.lat) / 2, lon: (tl.lon + br.lon) / 2 }, center)).toBeLessThan(5000 + 10_000);
    }
  });

  it('answers a 400 naming zoom for zoom 19', async () => {
    const nineteen = await get('/api/v1/certificates/geo-grid?zoom=19');
    expect(nineteen.status).toBe(400);
    expect(nineteen.body.error.details.issues[0].parameter).toBe('zoom');
  });
});

describe('GeoJSON and expand=parcel', () => {
  it('search answers a FeatureCollection of the rows, Point [lon, lat] or null, with pagination and meta', async () => {
    const res = await get('/api/v1/certificates/search?limit=200&format=geojson&expand=parcel');
    expect(res.status).toBe(200);
    expect(res.type).toContain('application/geo+json');
    expect(res.body.type).toBe('FeatureCollection');
    expect(res.body.features).toHaveLength(200);
    expect(res.body.pagination.total).toBe(rows.length);
    expect(res.body.meta.request_id).toMatch(/^req_/);
    let nulls = 0;
    for (const f of res.body.features) {
      const row = byId.get(f.properties.id)!;
      if (row.location) {
        expect(f.geometry).toEqual({ type: 'Point', coordinates: [row.location.lon, row.location.lat] });
        expect(f.properties.parcel).toMatchObject({ lat: row.location.lat, just_value: row.just_value, homestead: row.homestead });
      } else {
        nulls++;
        expect(f.geometry).toBeNull();
        expect(f.properties.parcel).toBeNull();
      }
    }
    expect(nulls).toBeGreaterThan(0);
  });

  it('by-id and by-parcel take expand and geojson; JSON rows stay the spec row without expand', async () => {
    const located = rows.find((r) => r.location)!;
    const one = await get(`/api/v1/certificates/${located.id}?format=geojson&expand=parcel`);
    expect(one.status).toBe(200);
    expect(one.body.features[0].geometry.coordinates).toEqual([located.location!.lon, located.location!.lat]);
    expect(one.body.features[0].properties.parcel.use_code).toBe(located.use_code);
    const plain = await get(`/api/v1/certificates/${located.id}`);
    expect(plain.body.data).not.toHaveProperty('parcel');
    expect(plain.body.data).not.toHaveProperty('location');
    const parcel = await get(
      `/api/v1/certificates/by-parcel?county=${located.county_slug}&parcel_id=${encodeURIComponent(located.parcel_id)}&format=geojson`,
    );
    expect(parcel.status).toBe(200);
    expect(parcel.body.features.map((f: { properties: { id: string } }) => f.properties.id)).toContain(located.id);
    const unknown = await get(`/api/v1/certificates/${located.id}?expand=unknown`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.issues[0].parameter).toBe('expand');
  });

  it('CSV with expand=parcel adds the parcel_<field> columns', async () => {
    const res = await api.app.inject({
      method: 'GET',
      url: '/api/v1/certificates/search?limit=3&format=csv&expand=parcel',
      headers: api.auth,
    });
    expect(res.statusCode).toBe(200);
    const header = res.body.split('\n')[0]!;
    expect(header).toContain('parcel_url,parcel_assessment_year,parcel_just_value');
    expect(header).toContain('parcel_lon');
  });
});

describe('counts and the market analytics take the same filters', () => {
  it('counts within a radius add up to the search total', async () => {
    const params = 'near=25.77,-80.19&radius=4km&owner_type=entity';
    const counts = await get(`/api/v1/certificates/counts?${params}`);
    expect(counts.status, JSON.stringify(counts.body)).toBe(200);
    const search = await get(`/api/v1/certificates/search?${params}&limit=1`);
    expect(counts.body.data.counts.reduce((n: number, c: { count: number }) => n + c.count, 0)).toBe(search.body.pagination.total);
  });

  it('bid rates and the redemption curve answer for a map and roll scope', async () => {
    const bid = await get('/api/v1/analytics/bid-rates?near=26.12,-80.14&radius=10km&homestead=false');
    expect(bid.status, JSON.stringify(bid.body)).toBe(200);
    const curve = await get(`/api/v1/analytics/redemption-curve?bbox=-80.3,25.6,-80.0,26.3&just_value_min=150000&as_of=${TODAY}`);
    expect(curve.status, JSON.stringify(curve.body)).toBe(200);
    expect(curve.body.data.certificates).toBeGreaterThan(0);
  });
});
