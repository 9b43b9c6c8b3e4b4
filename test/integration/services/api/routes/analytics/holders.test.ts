import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HolderGroupRow } from '../../../../../../services/api/routes/analytics/holders/row.ts';
import { holderId } from '../../../../../../services/domain/ids.ts';
import type { CertificateRecord, CertificateStatus } from '../../../../../../services/domain/records.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';
import type { FastifyInstance } from 'fastify';
import { openSeededApi, type SeededApi } from './seeded-api.ts';

/**
 * GET /analytics/holders on a 3-shard index: the groups are written here by hand
 * (which spellings are one family), the figures are counted from the seed rows, and
 * every page must add up: each certificate in exactly one group, members summing to
 * their group, pages without duplicates.
 */

const COUNTY_NAME: Record<string, string> = { alachua: 'Alachua', broward: 'Broward' };

/** The hand-made answer: group display name -> its member spellings. */
const EXPECTED_GROUPS: Record<string, string[]> = {
  'FL TAX LIEN FUND': ['FL TAX LIEN FUND 11 LLC', 'Fl Tax Lien Fund 3, L.L.C.', 'FLORIDA TAX LIEN FUND 7 LLC'],
  'CAZ CREEK FL': ['US BANK AS CUSTODIAN FOR CAZ CREEK FL LLC', 'CAZ CREEK FL LLC'],
  TLGFY: ['TLGFY LLC SERIES 2019', 'TLGFY, LLC'],
  'BRIDGE TAX LIEN FUND': ['BRIDGE TAX LIEN FUND II LP', 'Bridge Tax Lien Fund IV, L.P.'],
  'JOHN SMITH': ['JOHN SMITH'],
  'JOHN SMITH II': ['JOHN SMITH II'],
  'Alachua County': ['Alachua County'],
  'Broward County': ['Broward County'],
};
const HOLDERS = Object.values(EXPECTED_GROUPS)
  .flat()
  .filter((h) => !h.endsWith(' County'));
const RATES = [0.25, 0.25, 0.25, 1, 3.5, 0.25, 5, 18, 0.25, 12];
const STATUSES: CertificateStatus[] = ['sold', 'sold', 'redeemed', 'sold', 'cancelled', 'tax_deed_applied', 'sold'];

function seed(): CertificateRecord[] {
  const out: CertificateRecord[] = [];
  for (let n = 0; n < 150; n++) {
    const county_slug = n % 3 === 0 ? 'broward' : 'alachua';
    const tax_year = 2021 + (n % 3);
    const struck = n % 13 === 0;
    const holder_name = struck ? `${COUNTY_NAME[county_slug]} County` : HOLDERS[(n * 7) % HOLDERS.length]!;
    const status: CertificateStatus = struck ? 'available' : STATUSES[n % STATUSES.length]!;
    const face_amount = 100 + ((n * 37) % 900) + 0.25;
    out.push(
      sampleCertificate(
        {
          certificate_number: `${tax_year}-${String(n).padStart(5, '0')}`,
          county_slug,
          county_name: COUNTY_NAME[county_slug]!,
          tax_year,
          status,
          face_amount,
          interest_rate: struck ? 18 : RATES[n % RATES.length]!,
          holder_name,
          holder_id: holderId(holder_name),
          struck_to_county: struck,
          redeemed: status === 'redeemed',
          redeemed_date: status === 'redeemed' ? `${tax_year + 2}-01-15` : null,
          tax_deed_application_date: status === 'tax_deed_applied' ? `${tax_year + 3}-05-01` : null,
        },
        n,
      ),
    );
  }
  return out;
}

/** Nearest-rank median counted from the rows, independently of the route's code. */
function median(rates: number[]): number {
  const sorted = [...rates].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1]!;
}
const round4 = (x: number) => Math.round(x * 10000) / 10000;
const cents = (xs: number[]) => xs.reduce((sum, x) => sum + Math.round(x * 100), 0) / 100;

describe('GET /api/v1/analytics/holders on a 3-shard index', () => {
  let api: SeededApi;
  let app: FastifyInstance;
  let records: CertificateRecord[];
  let auth: Record<string, string>;

  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: auth });
    return {
      status: res.statusCode,
      path: res.headers['x-analytics-path'],
      body: res.json() as {
        data: HolderGroupRow[];
        pagination: { total: number; has_more: boolean };
        error?: { code: string; details?: { issues?: { parameter: string }[] } };
      },
    };
  };
  /** Every group in scope, page by page. */
  const all = async (qs: string, limit: number) => {
    const rows: HolderGroupRow[] = [];
    for (let offset = 0; ; offset += limit) {
      const { status, body } = await get(`/api/v1/analytics/holders?${qs}&limit=${limit}&offset=${offset}`);
      expect(status).toBe(200);
      rows.push(...body.data);
      if (!body.pagination.has_more) return { rows, total: body.pagination.total };
    }
  };

  beforeAll(async () => {
    records = seed();
    api = await openSeededApi(import.meta.url, records);
    ({ app, auth } = api);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('finds exactly the hand-made groups with figures counted from the rows', async () => {
    const { rows, total } = await all('sort=name_asc', 3);
    expect(total).toBe(Object.keys(EXPECTED_GROUPS).length);
    expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(EXPECTED_GROUPS).sort());
    for (const row of rows) {
      const spellings = EXPECTED_GROUPS[row.name]!;
      const mine = records.filter((r) => spellings.includes(r.holder_name));
      // Every spelling of the family is seeded, so every one is a member.
      expect(row.members.map((m) => m.name).sort(), row.name).toEqual([...spellings].sort());
      for (const m of row.members) expect(m.certificates).toBe(mine.filter((r) => r.holder_name === m.name).length);
      expect(row.certificates).toBe(mine.length);
      expect(row.face_amount).toBe(cents(mine.map((r) => r.face_amount)));
      expect(row.outstanding_face_amount).toBe(
        cents(mine.filter((r) => r.status !== 'redeemed' && r.status !== 'cancelled').map((r) => r.face_amount)),
      );
      expect(row.counties).toEqual([...new Set(mine.map((r) => r.county_slug))].sort());
      expect(row.first_tax_year).toBe(Math.min(...mine.map((r) => r.tax_year)));
      expect(row.last_tax_year).toBe(Math.max(...mine.map((r) => r.tax_year)));
      expect(row.median_rate).toBe(median(mine.map((r) => r.interest_rate)));
      expect(row.share_quarter).toBe(round4(mine.filter((r) => r.interest_rate === 0.25).length / mine.length));
      expect(row.redeemed_share).toBe(round4(mine.filter((r) => r.redeemed).length / mine.length));
      expect(row.county_held).toBe(row.name.endsWith(' County'));
      expect(row.group_id).toMatch(/^grp_[0-9a-f]{20}$/);
    }
    // Names ascending, as the sort says.
    expect(rows.map((r) => r.name.toUpperCase())).toEqual(rows.map((r) => r.name.toUpperCase()).sort());
  });

  it.each(['certificates_desc', 'face_desc', 'median_rate_asc', 'name_asc'])(
    'sort=%s with county and tax_year: pages of 2 without duplicates add up to every certificate in scope',
    async (sort) => {
      const qs = `sort=${sort}&county=alachua&tax_year=2021,2022`;
      const { rows, total } = await all(qs, 2);
      const inScope = records.filter((r) => r.county_slug === 'alachua' && r.tax_year <= 2022);
      expect(new Set(rows.map((r) => r.group_id)).size).toBe(rows.length);
      expect(rows.length).toBe(total);
      expect(rows.reduce((sum, r) => sum + r.certificates, 0)).toBe(inScope.length);
      for (const r of rows) expect(r.members.reduce((sum, m) => sum + m.certificates, 0)).toBe(r.certificates);
      expect(rows.every((r) => r.counties.join() === 'alachua')).toBe(true);
      const key = {
        certificates_desc: (r: HolderGroupRow) => -r.certificates,
        face_desc: (r: HolderGroupRow) => -r.face_amount,
        median_rate_asc: (r: HolderGroupRow) => r.median_rate,
        name_asc: () => 0,
      }[sort]!;
      for (let i = 1; i < rows.length; i++) expect(key(rows[i]!)).toBeGreaterThanOrEqual(key(rows[i - 1]!));
      // The county's own certificates are one group, in its county only.
      expect(rows.filter((r) => r.county_held).map((r) => r.name)).toEqual(['Alachua County']);
    },
  );

  it('says which path read it: rollups for the whole index and one county, a scan for a tax year or several counties', async () => {
    const county = records[0]!.county_slug;
    for (const [qs, path] of [
      ['', 'rollup'],
      [`county=${county}`, 'rollup'],
      [`tax_year=${records[0]!.tax_year}`, 'scan'],
      [`county=${county},${records.find((r) => r.county_slug !== county)!.county_slug}`, 'scan'],
    ] as const) {
      const res = await get(`/api/v1/analytics/holders?${qs}`);
      expect(res.status, qs).toBe(200);
      expect(res.path, qs).toBe(path);
    }
  });

  it('query matches member names (case, punctuation and "&"/and ignored) and keeps the whole group', async () => {
    const { body } = await get('/api/v1/analytics/holders?query=us%20bank%20as%20custodian');
    expect(body.data.map((r) => r.name)).toEqual(['CAZ CREEK FL']);
    expect(body.data[0]!.members.map((m) => m.name).sort()).toEqual(['CAZ CREEK FL LLC', 'US BANK AS CUSTODIAN FOR CAZ CREEK FL LLC']);
    const funds = await get('/api/v1/analytics/holders?query=FL%20TAX-LIEN%20fund%203%2C');
    expect(funds.body.data.map((r) => r.name)).toEqual(['FL TAX LIEN FUND']);
    expect(funds.body.data[0]!.members.map((m) => m.name).sort()).toEqual([...EXPECTED_GROUPS['FL TAX LIEN FUND']!].sort());
    // The same match through the terms scan (face_desc) and the exact (group, name) scan (name_asc).
    for (const sort of ['face_desc', 'name_asc']) {
      const again = await get(`/api/v1/analytics/holders?query=FL%20TAX-LIEN%20fund%203%2C&sort=${sort}`);
      expect(again.body.data).toEqual(funds.body.data);
    }
    const none = await get('/api/v1/analytics/holders?query=nobody%20at%20all');
    expect(none.body).toMatchObject({ data: [], pagination: { total: 0, has_more: false } });
  });

  it('the group fields stay in the index: the public certificate row (spec 2.2) does not show them', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/certificates/search?limit=1', headers: auth });
    const row = (res.json() as { data: Record<string, unknown>[] }).data[0]!;
    expect(Object.keys(row)).not.toContain('holder_group_id');
    expect(Object.keys(row)).not.toContain('county_held');
  });

  it('bad parameters are 400s naming them', async () => {
    for (const [qs, parameter] of [
      ['sort=rate', 'sort'],
      ['county=atlantis', 'county'],
      ['tax_year=20x', 'tax_year'],
      ['query=--', 'query'],
      ['limit=0', 'limit'],
      ['holder=x', 'holder'],
    ]) {
      const { status, body } = await get(`/api/v1/analytics/holders?${qs}`);
      expect(status, qs).toBe(400);
      expect(
        body.error?.details?.issues?.map((i) => i.parameter),
        qs,
      ).toContain(parameter);
    }
  });
});
