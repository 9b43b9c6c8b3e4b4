import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectResponse } from '../../../../../../services/api/envelope.ts';
import { floridaToday } from '../../../../../../services/api/routes/certificate-sales/florida-today.ts';
import { DeedEstimateObject, RedemptionQuoteObject, TimelineObject } from '../../../../../../services/api/routes/certificate-quotes/row.ts';
import { certificateTimeline, deedApplicationEarliest } from '../../../../../../services/domain/certificate-timeline.ts';
import type { CertificateRecord } from '../../../../../../services/domain/records.ts';
import { expiryDate, redemptionQuote } from '../../../../../../services/domain/redemption-quote.ts';
import { type CertificatesApi, openCertificatesApi } from '../certificates/seed.ts';

/**
 * The per-certificate investor answers on the real engine (the seed on a 3-shard index): the
 * redemption quote, the timeline and the deed estimate routes, and the two search filters
 * deed_eligible_by and expires_before, each checked against the domain's own dates over every
 * seeded certificate.
 */
describe('per-certificate answers and the deadline filters', () => {
  let api: CertificatesApi;

  beforeAll(async () => {
    api = await openCertificatesApi(import.meta.url);
  });
  afterAll(async () => api?.close());

  const json = async (url: string, status = 200) => {
    const res = await api.get(url);
    expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
    return res.json();
  };
  const one = (f: (r: CertificateRecord) => boolean) => {
    const found = api.records.find(f);
    if (!found) throw new Error('the seed has no such certificate');
    return found;
  };
  const plusYears = (iso: string, years: number) => `${Number(iso.slice(0, 4)) + years}${iso.slice(4)}`;

  describe('GET /certificates/{id}/redemption', () => {
    it('quotes what the domain quotes, in the public schema', async () => {
      const sold = one((r) => r.status === 'sold' && r.interest_rate > 0);
      const date = plusYears(sold.sale_date, 1);
      const body = await json(`/api/v1/certificates/${sold.id}/redemption?date=${date}`);
      expect(objectResponse(RedemptionQuoteObject.strict()).parse(body)).toEqual(body);
      const q = redemptionQuote(sold, date);
      if (!q.redeemable) throw new Error('expected a redeemable quote');
      expect(body.data).toMatchObject({
        certificate_id: sold.id,
        as_of: date,
        status: 'sold',
        redeemable: true,
        reason: null,
        interest_months: q.interest_months,
        holder_amount: q.holder_amount_cents / 100,
        total_due: (q.holder_amount_cents + 625) / 100,
        redemption_fee: 6.25,
        rule: q.rule,
      });
    });

    it("answers a redeemed certificate's redemption_amount on its redeemed_date, and not redeemable after", async () => {
      const redeemed = api.records.filter((r) => r.status === 'redeemed');
      expect(redeemed.length).toBeGreaterThan(5);
      for (const r of redeemed) {
        const body = await json(`/api/v1/certificates/${r.id}/redemption?date=${r.redeemed_date}`);
        expect(body.data.holder_amount, r.id).toBe(r.redemption_amount);
      }
      const r = redeemed[0]!;
      const after = new Date(Date.parse(`${r.redeemed_date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      const body = await json(`/api/v1/certificates/${r.id}/redemption?date=${after}`);
      expect(body.data).toMatchObject({ redeemable: false, reason: 'redeemed', holder_amount: null, total_due: null, rule: null });
    });

    it('cancelled and expired certificates are not redeemable; a deed application is pending', async () => {
      const cancelled = one((r) => r.status === 'cancelled');
      expect((await json(`/api/v1/certificates/${cancelled.id}/redemption?date=${cancelled.sale_date}`)).data).toMatchObject({
        redeemable: false,
        reason: 'cancelled',
      });
      const sold = one((r) => r.status === 'sold');
      expect((await json(`/api/v1/certificates/${sold.id}/redemption?date=${expiryDate(sold.sale_date)}`)).data).toMatchObject({
        redeemable: false,
        reason: 'expired',
        statute: ['s. 197.482'],
      });
      const applied = one((r) => r.status === 'tax_deed_applied');
      expect((await json(`/api/v1/certificates/${applied.id}/redemption?date=${plusYears(applied.sale_date, 8)}`)).data).toMatchObject({
        redeemable: true,
        deed_application_pending: true,
      });
    });

    it('defaults the date to today in Florida', async () => {
      const sold = one((r) => r.status === 'sold');
      const before = floridaToday(new Date());
      const body = await json(`/api/v1/certificates/${sold.id}/redemption`);
      expect([before, floridaToday(new Date())]).toContain(body.data.as_of);
    });

    it('answers 400 naming date for a non-date or a day before the sale, 404 for an unknown id', async () => {
      const sold = one((r) => r.status === 'sold');
      const dayBefore = new Date(Date.parse(`${sold.sale_date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      for (const path of ['redemption', 'timeline', 'deed-estimate']) {
        for (const date of ['2025-02-30', 'tomorrow', '', dayBefore]) {
          const body = await json(`/api/v1/certificates/${sold.id}/${path}?date=${date}`, 400);
          expect(body.error.code).toBe('bad_request');
          expect(
            body.error.details.issues.map((i: { parameter: string }) => i.parameter),
            `${path} ${date}`,
          ).toEqual(['date']);
        }
        expect((await json(`/api/v1/certificates/${sold.id}/${path}?dte=2025-01-01`, 400)).error.details.issues[0].parameter).toBe('dte');
        for (const id of ['cert_00000000000000000000', 'nope'])
          expect((await json(`/api/v1/certificates/${id}/${path}?date=2025-01-01`, 404)).error.code).toBe('not_found');
      }
      const early = await json(`/api/v1/certificates/${sold.id}/redemption?date=${dayBefore}`, 400);
      expect(early.error.details.issues[0].message).toBe(`must be on or after the sale date ${sold.sale_date}; ${dayBefore} is earlier`);
    });
  });

  it('charges each of the three routes 1 credit, like any REST read', async () => {
    const sold = one((r) => r.status === 'sold');
    const used = async () => (await json('/api/v1/account/usage')).data.events_count as number;
    for (const path of ['redemption', 'timeline', 'deed-estimate']) {
      const before = await used();
      await json(`/api/v1/certificates/${sold.id}/${path}?date=${plusYears(sold.sale_date, 3)}`);
      expect(await used(), path).toBe(before + 1);
    }
  });

  it('leaves the static certificate routes alone: a static name under the new paths is an id nobody has', async () => {
    for (const name of ['search', 'by-parcel', 'counts', 'fields', 'freshness'])
      expect((await json(`/api/v1/certificates/${name}/redemption?date=2025-01-01`, 404)).error.code).toBe('not_found');
    expect((await json('/api/v1/certificates/counts')).data.counts).toHaveLength(7);
    const sold = one((r) => r.status === 'sold');
    expect((await json(`/api/v1/certificates/${sold.id}`)).data.id).toBe(sold.id);
  });

  describe('GET /certificates/{id}/timeline', () => {
    it('gives the statutory dates and the next deadline', async () => {
      const sold = one((r) => r.status === 'sold');
      const date = plusYears(sold.sale_date, 1);
      const body = await json(`/api/v1/certificates/${sold.id}/timeline?date=${date}`);
      expect(objectResponse(TimelineObject.strict()).parse(body)).toEqual(body);
      expect(body.data.dates).toEqual({
        sale: sold.sale_date,
        interest_starts: `${sold.sale_date.slice(0, 4)}-06-01`,
        deed_application_earliest: `${Number(sold.sale_date.slice(0, 4)) + 2}-04-01`,
        expires: plusYears(sold.sale_date, 7),
        tax_deed_application: null,
        redeemed: null,
      });
      expect(body.data.next_deadline).toEqual(certificateTimeline(sold, date).next_deadline);
      expect(body.data.next_deadline.name).toBe('deed_application_earliest');
      const applied = one((r) => r.status === 'tax_deed_applied');
      const later = await json(`/api/v1/certificates/${applied.id}/timeline?date=${applied.tax_deed_application_date}`);
      expect(later.data.dates).toMatchObject({ expires: null, tax_deed_application: applied.tax_deed_application_date });
      const redeemed = one((r) => r.status === 'redeemed');
      expect((await json(`/api/v1/certificates/${redeemed.id}/timeline?date=${redeemed.sale_date}`)).data.next_deadline).toBeNull();
    });
  });

  describe('GET /certificates/{id}/deed-estimate', () => {
    // The seed's one parcel over three tax years (sold 2022-06-01, 2023-06-01, 2024-06-01).
    const walker = () => api.records.filter((r) => r.owner_name === 'Parcel Walker').sort((a, b) => a.tax_year - b.tax_year);

    it("adds the parcel's other certificates at their quotes on the day and the $75 fee", async () => {
      const [oldest, middle, newest] = walker() as [CertificateRecord, CertificateRecord, CertificateRecord];
      const date = '2025-04-01';
      const body = await json(`/api/v1/certificates/${oldest.id}/deed-estimate?date=${date}`);
      expect(objectResponse(DeedEstimateObject.strict()).parse(body)).toEqual(body);
      const quotes = await Promise.all(
        [middle, newest].map(
          async (c) => (await json(`/api/v1/certificates/${c.id}/redemption?date=${date}`)).data.holder_amount as number,
        ),
      );
      expect(body.data).toMatchObject({
        certificate_id: oldest.id,
        eligible: true,
        eligible_from: deedApplicationEarliest(oldest.sale_date),
        application_fee: 75,
      });
      expect(body.data.other_certificates).toEqual([
        {
          id: middle.id,
          certificate_number: middle.certificate_number,
          tax_year: middle.tax_year,
          status: middle.status,
          holder_name: middle.holder_name,
          holder_amount: quotes[0],
        },
        {
          id: newest.id,
          certificate_number: newest.certificate_number,
          tax_year: newest.tax_year,
          status: newest.status,
          holder_name: newest.holder_name,
          holder_amount: quotes[1],
        },
      ]);
      const cents = quotes.reduce((s, q) => s + Math.round(q * 100), 0);
      expect(body.data.other_certificates_total).toBe(cents / 100);
      expect(body.data.known_total).toBe((cents + 7500) / 100);
      expect(body.data.not_included.length).toBeGreaterThan(3);
    });

    it('leaves out certificates not yet sold on the day, and is not eligible before April 1 of the sale year + 2', async () => {
      const [oldest, middle] = walker() as [CertificateRecord, CertificateRecord];
      const body = await json(`/api/v1/certificates/${oldest.id}/deed-estimate?date=2024-03-31`);
      expect(body.data.eligible).toBe(false);
      expect(body.data.other_certificates.map((o: { id: string }) => o.id)).toEqual([middle.id]);
      // Another county's parcel with the same id is another parcel.
      const duval = one((r) => r.county_slug === 'duval' && r.parcel_id === '12-34-56-0001');
      expect((await json(`/api/v1/certificates/${duval.id}/deed-estimate?date=2025-04-01`)).data.other_certificates).toEqual([]);
    });
  });

  describe('search: deed_eligible_by and expires_before', () => {
    const ids = async (qs: string) => {
      const body = await json(`/api/v1/certificates/search?limit=500&${qs}`);
      expect(body.pagination.total).toBe(body.data.length);
      return { ids: (body.data as { id: string }[]).map((r) => r.id).sort(), body };
    };

    it.each(['2024-04-01', '2025-03-31', '2025-04-01', '2026-12-31'])(
      'deed_eligible_by=%s: exactly the certificates the timeline allows',
      async (day) => {
        const got = await ids(`deed_eligible_by=${day}`);
        const expected = api.records
          .filter((r) => deedApplicationEarliest(r.sale_date) <= day)
          .map((r) => r.id)
          .sort();
        expect(expected.length).toBeGreaterThan(0);
        expect(got.ids).toEqual(expected);
      },
    );

    it.each(['2029-06-01', '2030-01-01', '2031-06-15'])(
      'expires_before=%s: outstanding, unapplied, expiring before the day',
      async (day) => {
        const got = await ids(`expires_before=${day}&facets=status,county`);
        const expected = api.records.filter(
          (r) =>
            r.status !== 'redeemed' && r.status !== 'cancelled' && r.tax_deed_application_date === null && expiryDate(r.sale_date) < day,
        );
        expect(expected.length).toBeGreaterThan(0);
        expect(got.ids).toEqual(expected.map((r) => r.id).sort());
        // Facets count within the filter.
        const statusCounts = Object.fromEntries(
          (got.body.facets.status as { value: string; count: number }[]).map((b) => [b.value, b.count]),
        );
        for (const status of new Set(expected.map((r) => r.status)))
          expect(statusCounts[status]).toBe(expected.filter((r) => r.status === status).length);
        const countyTotal = (got.body.facets.county as { count: number }[]).reduce((s, b) => s + b.count, 0);
        expect(countyTotal).toBe(expected.length);
      },
    );

    it('combines with the other filters, and answers 400s like the other date filters', async () => {
      const got = await ids('deed_eligible_by=2025-04-01&expires_before=2030-01-01&county=broward');
      const expected = api.records.filter(
        (r) =>
          r.county_slug === 'broward' &&
          deedApplicationEarliest(r.sale_date) <= '2025-04-01' &&
          !['redeemed', 'cancelled'].includes(r.status) &&
          r.tax_deed_application_date === null &&
          expiryDate(r.sale_date) < '2030-01-01',
      );
      expect(got.ids).toEqual(expected.map((r) => r.id).sort());
      for (const param of ['deed_eligible_by', 'expires_before']) {
        const body = await json(`/api/v1/certificates/search?${param}=2025-13-01`, 400);
        expect(body.error.details.issues).toEqual([{ parameter: param, message: 'must be a real calendar date written YYYY-MM-DD' }]);
      }
    });
  });
});
