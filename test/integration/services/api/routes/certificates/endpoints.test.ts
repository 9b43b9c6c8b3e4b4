import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listResponse, objectResponse } from '../../../../../../services/api/envelope.ts';
import { FieldDictionary } from '../../../../../../services/api/routes/certificates/fields.ts';
import { CertificateCountsObject, CertificateRow, FreshnessObject } from '../../../../../../services/api/routes/certificates/row.ts';
import { markIngested } from '../../../../../../services/control/ingest/freshness.ts';
import { CERTIFICATE_STATUSES } from '../../../../../../services/domain/records.ts';
import { type CertificatesApi, openCertificatesApi } from './seed.ts';

/** by-parcel, {id}, counts, fields and freshness. */
describe('certificate endpoints besides search', () => {
  let api: CertificatesApi;

  beforeAll(async () => {
    api = await openCertificatesApi(import.meta.url);
  });
  afterAll(async () => api?.close());

  const json = async (url: string, status = 200) => {
    const res = await api.get(url);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json();
  };

  describe('GET /certificates/by-parcel', () => {
    const walker = () =>
      api.records
        .filter((r) => r.owner_name === 'Parcel Walker')
        .sort((a, b) => b.tax_year - a.tax_year)
        .map((r) => r.id);

    it('lists every tax year of the parcel, newest first, whatever punctuation', async () => {
      for (const parcel of ['12-34-56-0001', '1234560001', '12.34.56.0001', '12 34 56 0001', '12-345-600-01']) {
        const body = await json(`/api/v1/certificates/by-parcel?county=broward&parcel_id=${encodeURIComponent(parcel)}`);
        expect(
          body.data.map((r: { id: string }) => r.id),
          parcel,
        ).toEqual(walker());
        expect(body.pagination).toEqual({ limit: 25, offset: 0, total: 3, has_more: false });
        expect(body.meta).toEqual({ request_id: expect.stringMatching(/^req_/), dataset_status: 'live' });
        expect(listResponse(CertificateRow).parse(body)).toEqual(body);
      }
      // Paged: limit and offset apply.
      const second = await json('/api/v1/certificates/by-parcel?county=broward&parcel_id=1234560001&limit=1&offset=1');
      expect(second.data.map((r: { id: string }) => r.id)).toEqual([walker()[1]]);
      expect(second.pagination).toEqual({ limit: 1, offset: 1, total: 3, has_more: true });
    });

    it('keeps counties apart and answers 200 empty for an unknown parcel or a county without a feed', async () => {
      const duval = await json('/api/v1/certificates/by-parcel?county=duval&parcel_id=12-34-56-0001');
      expect(duval.data.map((r: { county_slug: string }) => r.county_slug)).toEqual(['duval']);
      for (const qs of ['county=broward&parcel_id=no-such-parcel', 'county=baker&parcel_id=12-34-56-0001']) {
        const body = await json(`/api/v1/certificates/by-parcel?${qs}`);
        expect(body.data).toEqual([]);
        expect(body.pagination).toEqual({ limit: 25, offset: 0, total: 0, has_more: false });
      }
    });

    it('answers 400 naming county or parcel_id when missing, and an unknown county slug', async () => {
      const cases: [string, string[]][] = [
        ['parcel_id=1', ['county']],
        ['county=broward', ['parcel_id']],
        ['', ['county', 'parcel_id']],
        ['county=atlantis&parcel_id=1', ['county']],
        ['county=broward&parcel_id=', ['parcel_id']],
      ];
      for (const [qs, parameters] of cases) {
        const body = await json(`/api/v1/certificates/by-parcel?${qs}`, 400);
        expect(body.error.code).toBe('bad_request');
        expect(
          body.error.details.issues.map((i: { parameter: string }) => i.parameter),
          qs,
        ).toEqual(parameters);
        if (!qs.includes('county=')) expect(body.error.details.issues[0].message).toMatch(/^is required/);
      }
    });

    it('answers CSV with the same rows', async () => {
      const res = await api.get('/api/v1/certificates/by-parcel?county=broward&parcel_id=1234560001&format=csv');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body.trim().split('\n');
      expect(lines[0]!.startsWith('id,certificate_number,county_slug,')).toBe(true);
      expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(walker());
    });
  });

  describe('GET /certificates/{id}', () => {
    it('returns the same object as search and by-parcel', async () => {
      const target = api.records.find((r) => r.owner_name === 'Parcel Walker')!;
      const one = await json(`/api/v1/certificates/${target.id}`);
      expect(Object.keys(one)).toEqual(['data', 'meta']);
      expect(objectResponse(CertificateRow).parse(one)).toEqual(one);
      const fromSearch = await json(`/api/v1/certificates/search?query=${encodeURIComponent(target.certificate_number)}`);
      const fromParcel = await json(`/api/v1/certificates/by-parcel?county=broward&parcel_id=${encodeURIComponent(target.parcel_id)}`);
      expect(fromSearch.data[0]).toEqual(one.data);
      expect(fromParcel.data.find((r: { id: string }) => r.id === target.id)).toEqual(one.data);
      expect(one.data.parcel_url).toBe(`https://parcels.example.test/v2/parcels/broward/${encodeURIComponent(target.parcel_id)}`);
    });

    it('answers 404 for an unknown id or one not of the form cert_<id>, and never takes a fixed path for an id', async () => {
      for (const id of [
        'cert_00000000000000000000',
        'cert_xyz',
        'abc',
        'searchh',
        'CERT_00000000000000000000',
        'x'.repeat(90),
        'x'.repeat(500),
        encodeURIComponent('cert_*:"()'),
      ]) {
        const body = await json(`/api/v1/certificates/${id}`, 404);
        expect(body.error).toMatchObject({ code: 'not_found', message: expect.stringContaining('cert_') });
      }
      for (const path of ['search', 'counts', 'fields', 'freshness'])
        expect((await api.get(`/api/v1/certificates/${path}`)).statusCode).toBe(200);
      const param = await json(`/api/v1/certificates/${api.records[0]!.id}?x=1`, 400);
      expect(param.error.details.issues[0].parameter).toBe('x');
    });
  });

  describe('GET /certificates/counts', () => {
    const expected = (keep: (r: (typeof api.records)[number]) => boolean) =>
      CERTIFICATE_STATUSES.map((status) => ({ status, count: api.records.filter((r) => keep(r) && r.status === status).length })).sort(
        (a, b) => b.count - a.count || a.status.localeCompare(b.status),
      );

    it('gives all seven statuses by count descending then name, echoing the scope', async () => {
      const all = await json('/api/v1/certificates/counts');
      expect(all.data).toEqual({ county: null, tax_year: null, counts: expected(() => true) });
      expect(objectResponse(CertificateCountsObject).parse(all)).toEqual(all);
      const scoped = await json('/api/v1/certificates/counts?county=Duval&tax_year=2022');
      expect(scoped.data).toEqual({
        county: 'duval',
        tax_year: 2022,
        counts: expected((r) => r.county_slug === 'duval' && r.tax_year === 2022),
      });
      const year = await json('/api/v1/certificates/counts?tax_year=2021');
      expect(year.data.county).toBeNull();
      expect(year.data.counts).toEqual(expected((r) => r.tax_year === 2021));
    });

    it('includes zero counts for a county without certificates and refuses bad scopes', async () => {
      const none = await json('/api/v1/certificates/counts?county=baker');
      expect(none.data.counts).toEqual([...CERTIFICATE_STATUSES].sort().map((status) => ({ status, count: 0 })));
      for (const qs of ['county=atlantis', 'tax_year=twenty', 'county=a&county=b', 'status=sold']) {
        const body = await json(`/api/v1/certificates/counts?${qs}`, 400);
        expect(body.error.code).toBe('bad_request');
      }
    });
  });

  describe('GET /certificates/fields', () => {
    it('describes every 2.2 field in order with its type, status values and vendor list', async () => {
      const body = await json('/api/v1/certificates/fields');
      expect(objectResponse(FieldDictionary).parse(body)).toEqual(body);
      const fields = body.data.fields as { name: string; type: string; description: string; values?: string[] }[];
      const row = await json('/api/v1/certificates/search?limit=1');
      expect(fields.map((f) => f.name)).toEqual(Object.keys(row.data[0]));
      const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
      expect(byName.status).toMatchObject({ type: 'enum', values: [...CERTIFICATE_STATUSES] });
      expect(byName.vendor).toMatchObject({ type: 'string', values: ['tax_collector', 'certbid', 'taxgavel', 'lienport'] });
      expect(byName.vendor!.description).toContain('lienexchange');
      expect(byName.tax_year!.type).toBe('integer');
      expect(byName.face_amount!.type).toBe('number');
      expect(byName.sale_date!.type).toBe('date');
      expect(byName.redeemed_date!.type).toBe('date');
      expect(byName.redemption_amount!.type).toBe('number');
      expect(byName.redeemed!.type).toBe('boolean');
      for (const f of fields) {
        expect(f.description.length, f.name).toBeGreaterThan(5);
        if (f.name !== 'status' && f.name !== 'vendor') expect(f.values).toBeUndefined();
      }
      expect((await json('/api/v1/certificates/fields?limit=1', 400)).error.details.issues[0].parameter).toBe('limit');
    });
  });

  describe('GET /certificates/freshness', () => {
    it('reports the unfiltered total, the newest tax year and the control plane times', async () => {
      await markIngested(api.t.runtime.sql, 'certificates', '2026-11-01T10:00:00.000Z');
      const body = await json('/api/v1/certificates/freshness');
      const search = await json('/api/v1/certificates/search?limit=1');
      expect(body.data).toEqual({
        certificate_count: search.pagination.total,
        latest_tax_year: Math.max(...api.records.map((r) => r.tax_year)),
        last_ingested_at: '2026-11-01T10:00:00.000Z',
        last_source_success_at: null,
      });
      expect(Object.keys(body)).toEqual(['data', 'meta']);
      expect(objectResponse(FreshnessObject).parse(body)).toEqual(body);
    });
  });
});
