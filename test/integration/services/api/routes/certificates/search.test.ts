import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listResponse } from '../../../../../../services/api/envelope.ts';
import { CERTIFICATE_COLUMNS, CertificateRow } from '../../../../../../services/api/routes/certificates/row.ts';
import type { CertificateRecord } from '../../../../../../services/domain/records.ts';
import { holderKey, sortedIds } from './expected.ts';
import { type CertificatesApi, openCertificatesApi, PARCEL_BASE_URL } from './seed.ts';

// The 2.2 field list itself is pinned by test/unit/services/api/routes/certificates/map-row.test.ts.
const COLUMNS: string[] = CERTIFICATE_COLUMNS;

describe('GET /api/v1/certificates/search', () => {
  let api: CertificatesApi;
  let records: CertificateRecord[];

  beforeAll(async () => {
    api = await openCertificatesApi(import.meta.url);
    records = api.records;
  });
  afterAll(async () => api?.close());

  async function search(qs: string) {
    const res = await api.get(`/api/v1/certificates/search?${qs}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: Record<string, unknown>[];
      pagination: { limit: number; offset: number; total: number; has_more: boolean };
      meta: Record<string, unknown>;
      facets?: Record<string, { value: unknown; count: number }[]>;
    };
  }

  /** Every matching id, in the API's order, walking pages of 500. */
  async function allIds(qs: string): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const body = await search(`${qs}&limit=500&offset=${offset}`);
      ids.push(...body.data.map((r) => r.id as string));
      if (!body.pagination.has_more) return ids;
    }
  }

  const ids = (rs: CertificateRecord[]) => rs.map((r) => r.id).sort();

  it('answers the list envelope with exactly the 2.2 fields in order, parcel_url from the configured base', async () => {
    const body = await search('limit=3');
    expect(Object.keys(body)).toEqual(['data', 'pagination', 'meta']);
    expect(body.pagination).toEqual({ limit: 3, offset: 0, total: records.length, has_more: true });
    expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_/), dataset_status: 'live' });
    expect(listResponse(CertificateRow, true).parse(body)).toEqual(body);
    for (const row of body.data) {
      expect(Object.keys(row)).toEqual(COLUMNS);
      const rec = records.find((r) => r.id === row.id)!;
      expect(row.parcel_url).toBe(`${PARCEL_BASE_URL}/${rec.county_slug}/${encodeURIComponent(rec.parcel_id)}`);
      const { parcel_url: _, ...rest } = row;
      expect(rest).toEqual(
        Object.fromEntries(COLUMNS.filter((c) => c !== 'parcel_url').map((c) => [c, rec[c as keyof CertificateRecord]])),
      );
    }
  });

  it('orders by newest sale first without sort or query, and by every sort row by row (ties by id)', async () => {
    expect(await allIds('')).toEqual(sortedIds(records, 'sale_date_desc'));
    for (const sort of ['face_desc', 'face_asc', 'year_newest', 'sale_date_desc', 'sale_newest', 'relevance'])
      expect(await allIds(`sort=${sort}`), sort).toEqual(sortedIds(records, sort));
  });

  it('walks every page without duplicates or gaps, with exact totals and has_more', async () => {
    const walked: string[] = [];
    for (let offset = 0; offset < records.length; offset += 7) {
      const body = await search(`sort=face_desc&limit=7&offset=${offset}`);
      expect(body.pagination).toMatchObject({ limit: 7, offset, total: records.length });
      expect(body.pagination.has_more).toBe(offset + body.data.length < records.length);
      walked.push(...body.data.map((r) => r.id as string));
    }
    expect(walked).toEqual(sortedIds(records, 'face_desc'));
    const past = await search(`offset=${records.length + 5}`);
    expect(past.data).toEqual([]);
    expect(past.pagination).toMatchObject({ total: records.length, has_more: false });
  });

  it('filters by county, status, tax_year and vendor, one value, repeated or comma-separated', async () => {
    const cases: [string, (r: CertificateRecord) => boolean][] = [
      ['county=broward', (r) => r.county_slug === 'broward'],
      ['county=broward,miami-dade', (r) => ['broward', 'miami-dade'].includes(r.county_slug)],
      ['county=broward&county=MIAMI-DADE', (r) => ['broward', 'miami-dade'].includes(r.county_slug)],
      ['status=redeemed', (r) => r.status === 'redeemed'],
      ['status=sold,tax_deed_applied', (r) => ['sold', 'tax_deed_applied'].includes(r.status)],
      ['tax_year=2022', (r) => r.tax_year === 2022],
      ['tax_year=2021&tax_year=2023', (r) => [2021, 2023].includes(r.tax_year)],
      ['vendor=lienport', (r) => r.vendor === 'lienport'],
      ['vendor=LIENPORT,Tax_Collector', (r) => ['lienport', 'tax_collector'].includes(r.vendor)],
      ['redeemed=true', (r) => r.redeemed],
      ['redeemed=false', (r) => !r.redeemed],
      ['face_min=500&face_max=500', (r) => r.face_amount === 500],
      ['face_min=800.25', (r) => r.face_amount >= 800.25],
      ['face_max=150.25', (r) => r.face_amount <= 150.25],
      ['sale_after=2023-07-01', (r) => r.sale_date >= '2023-07-01'],
      ['sale_before=2022-06-01', (r) => r.sale_date <= '2022-06-01'],
      ['sale_after=2022-06-05&sale_before=2022-06-05', (r) => r.sale_date === '2022-06-05'],
      [
        'county=alachua,duval&status=sold&tax_year=2023&vendor=tax_collector&redeemed=false',
        (r) => ['alachua', 'duval'].includes(r.county_slug) && r.status === 'sold' && r.tax_year === 2023 && r.vendor === 'tax_collector',
      ],
    ];
    for (const [qs, keep] of cases) {
      const expected = records.filter(keep);
      expect(expected.length, `${qs} selects something`).toBeGreaterThan(0);
      expect((await allIds(qs)).sort(), qs).toEqual(ids(expected));
      expect((await search(qs)).pagination.total, qs).toBe(expected.length);
    }
  });

  it('answers 200 with no rows for an unknown vendor and for a county without certificates', async () => {
    for (const qs of ['vendor=no-such-vendor', 'county=baker']) {
      const body = await search(qs);
      expect(body.data).toEqual([]);
      expect(body.pagination).toEqual({ limit: 25, offset: 0, total: 0, has_more: false });
    }
  });

  it('matches holder= as a contains match ignoring case, punctuation and & versus and', async () => {
    const cases: [string, string][] = [
      ['acme tax fund llc', 'acmetaxfundllc'],
      ['ACME TAX FUND, L.L.C.', 'acmetaxfundllc'],
      ['Smith & Jones', 'smithandjones'],
      ['smith and jones capital', 'smithandjonescapital'],
      ['liens', 'liens'],
    ];
    for (const [holder, key] of cases) {
      const expected = records.filter((r) => holderKey(r.holder_name).includes(key));
      expect(expected.length).toBeGreaterThan(0);
      expect((await allIds(`holder=${encodeURIComponent(holder)}`)).sort(), holder).toEqual(ids(expected));
    }
    // Both spellings of one holder come back for either spelling.
    const acme = await search(`holder=${encodeURIComponent('Acme Tax Fund LLC')}&limit=500`);
    expect(new Set(acme.data.map((r) => r.holder_name))).toEqual(new Set(['Acme Tax Fund LLC', 'ACME TAX FUND, L.L.C.']));
    expect((await search('holder=nobody-holds-this')).pagination.total).toBe(0);
  });

  it('finds a certificate by number or parcel id with or without punctuation, exact match first', async () => {
    const target = records.find((r) => r.parcel_id === '12-34-56-0001' && r.county_slug === 'broward')!;
    for (const q of ['12-34-56-0001', '1234560001', '12.34.56.0001', '12 34 56 0001']) {
      const body = await search(`query=${encodeURIComponent(q)}&county=broward`);
      // The three tax years of the parcel, whichever punctuation each year's file used.
      expect(body.pagination.total, q).toBe(3);
      expect(body.data.map((r) => r.owner_name)).toEqual(['Parcel Walker', 'Parcel Walker', 'Parcel Walker']);
    }
    const byNumber = await search(`query=${encodeURIComponent(target.certificate_number.toLowerCase())}`);
    expect(byNumber.data[0]!.id).toBe(target.id);
    const cert = records[17]!;
    const noDash = await search(`query=${cert.certificate_number.replace(/-/g, '')}`);
    expect(noDash.data[0]!.id).toBe(cert.id);
  });

  it('matches owner, address and legal description ignoring case and accents, and tolerates a typo in a name', async () => {
    const owners = (body: { data: Record<string, unknown>[] }) => new Set(body.data.map((r) => r.owner_name));
    expect(owners(await search('query=jose%20nunez&limit=500'))).toEqual(new Set(['José Núñez']));
    expect(owners(await search('query=JOSÉ%20NÚÑEZ&limit=500'))).toEqual(new Set(['José Núñez']));
    expect((await search('query=jose%20nunez')).pagination.total).toBe(records.filter((r) => r.owner_name === 'José Núñez').length);
    // One typo per word in a name.
    expect(owners(await search('query=jonathon%20whitaker&limit=500'))).toEqual(new Set(['Jonathan Whitaker']));
    expect(owners(await search('query=mary%20smiht&limit=500'))).toEqual(new Set(['Mary Smith']));
    // Address words and legal-description words.
    expect(owners(await search('query=archer%20rd&limit=500'))).toEqual(new Set(['Parcel Walker']));
    const legal = records.filter((r) => r.legal_description?.includes('LOT 49 '));
    expect((await allIds('query=lot%2049%20oak%20park')).sort()).toEqual(ids(legal));
  });

  it('treats query-parser characters as plain text', async () => {
    const obrien = records.filter((r) => r.owner_name.startsWith("O'Brien"));
    for (const q of ["O'Brien (Trust)", 'obrien AND OR', '(trust)', '"o\'brien"']) {
      const body = await search(`query=${encodeURIComponent(q)}&limit=500`);
      expect(new Set(body.data.map((r) => r.owner_name)), q).toEqual(new Set([obrien[0]!.owner_name]));
    }
    for (const q of ['*', '\\', 'owner_name:*', '"', '((', 'a AND', 'OR', '~1', '/.*/', '[a TO z]']) {
      const body = await search(`query=${encodeURIComponent(q)}`);
      expect(body.pagination.total, q).toBeLessThan(records.length);
    }
  });

  it('orders by relevance when query is given, and honours an explicit sort with a query', async () => {
    const q = 'query=mary%20smith';
    const relevance = await allIds(q);
    const smiths = records.filter((r) => r.owner_name === 'Mary Smith');
    expect(relevance.sort()).toEqual(ids(smiths));
    expect(await allIds(`${q}&sort=face_asc`)).toEqual(sortedIds(smiths, 'face_asc'));
  });

  it('answers CSV with a header line and the same rows, by format=csv or Accept: text/csv', async () => {
    const json = await search('county=duval&sort=face_desc&limit=10');
    for (const res of [
      await api.get('/api/v1/certificates/search?county=duval&sort=face_desc&limit=10&format=csv'),
      await api.get('/api/v1/certificates/search?county=duval&sort=face_desc&limit=10', { accept: 'text/csv' }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body.trim().split('\n');
      expect(lines[0]).toBe(COLUMNS.join(','));
      expect(lines).toHaveLength(11);
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(json.data.map((r) => r.id));
    }
  });
});
