import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bidRateExample, examples } from '../../../../../services/api/openapi/examples.ts';
import { readWrittenSet } from '../../../../../scripts/lib/read-set.ts';
import type { CertificateRecord } from '../../../../../services/domain/records.ts';
import { loadRegistry } from '../../../../../services/domain/registry.ts';

/**
 * The OpenAPI examples are real answers taken from the demo data. They are recorded by
 * `npm run openapi:examples`; this reads fixtures/demo back through the adapters (no engine) and
 * checks that every certificate an example shows, and every figure an example adds up, is in the
 * demo files, so a regenerated demo set with stale examples fails here.
 */
const demo = fileURLToPath(new URL('../../../../../fixtures/demo', import.meta.url));
const round2 = (n: number) => Math.round(n * 100) / 100;

describe('the OpenAPI examples come from the demo data', () => {
  const byId = new Map<string, CertificateRecord>();
  const records: CertificateRecord[] = [];
  const of = (county: string, taxYear: number) => records.filter((r) => r.county_slug === county && r.tax_year === taxYear);

  beforeAll(async () => {
    for await (const row of readWrittenSet(demo, loadRegistry()).rows()) {
      if (!row.record) continue;
      records.push(row.record);
      byId.set(row.record.id, row.record);
    }
  }, 60_000);

  /** The example row's every field is the demo record's (the API row is a subset of the record). */
  const expectDemoRow = (row: Record<string, unknown>) => {
    const record = byId.get(row.id as string);
    expect(record, `${row.id} is not in fixtures/demo: run npm run openapi:examples`).toBeDefined();
    for (const [field, value] of Object.entries(row))
      expect(value, `${row.id} ${field}`).toEqual((record as Record<string, unknown>)[field]);
  };

  it('shows only certificates of the demo files, field for field', () => {
    const rows = [...examples.certificateList.data, examples.certificate.data, ...examples.certificatesByParcel.data];
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expectDemoRow(row);
    // A sold one, a redeemed one and one with a tax deed application, as a reader expects to see.
    const statuses = new Set(rows.map((r) => r.status));
    for (const status of ['sold', 'redeemed', 'tax_deed_applied']) expect(statuses.has(status), status).toBe(true);
    for (const row of examples.certificatesByParcel.data) expect(row.parcel_id).toBe(examples.certificate.data.parcel_id);
  });

  it('quotes, times and estimates a sold certificate of the demo files from its own amounts and dates', () => {
    const subject = byId.get(examples.redemptionQuote.data.certificate_id)!;
    expect(subject, examples.redemptionQuote.data.certificate_id).toBeDefined();
    expect(subject.status).toBe('sold');
    const quote = examples.redemptionQuote.data;
    expect([quote.face_amount, quote.interest_rate]).toEqual([subject.face_amount, subject.interest_rate]);
    // After June of the sale year, the sale having been made.
    expect(quote.as_of > `${subject.sale_date.slice(0, 4)}-06-30`).toBe(true);
    const timeline = examples.certificateTimeline.data;
    expect([timeline.certificate_id, timeline.dates.sale]).toEqual([subject.id, subject.sale_date]);
    const deed = examples.deedEstimate.data;
    expect(deed.certificate_id).toBe(subject.id);
    expect(deed.other_certificates.length).toBeGreaterThan(0);
    for (const other of deed.other_certificates) {
      const record = byId.get(other.id);
      expect(record, `${other.id} is not in fixtures/demo`).toBeDefined();
      expect([record!.parcel_id, record!.county_slug]).toEqual([subject.parcel_id, subject.county_slug]);
      expect([other.certificate_number, other.tax_year, other.holder_name]).toEqual([
        record!.certificate_number,
        record!.tax_year,
        record!.holder_name,
      ]);
    }
  });

  it("counts what the demo files hold: status counts, the freshness total, the county's certificates", () => {
    const { county, tax_year, counts } = examples.certificateCounts.data;
    const rows = of(county, tax_year!);
    for (const { status, count } of counts) expect([status, count]).toEqual([status, rows.filter((r) => r.status === status).length]);
    expect(examples.certificateFreshness.data.certificate_count).toBe(records.length);
    const slug = examples.county.data.countySlug;
    expect(examples.county.data.certificateCount).toBe(records.filter((r) => r.county_slug === slug).length);
  });

  it('adds up each sale row and the bid-rate figures from the certificates of its county and year', () => {
    for (const sale of examples.certificateSaleList.data) {
      const rows = of(sale.county_slug, sale.tax_year);
      const bid = rows.filter((r) => !r.struck_to_county);
      expect([sale.certificates_offered, sale.certificates_sold, sale.struck_to_county]).toEqual([
        rows.length,
        bid.length,
        rows.length - bid.length,
      ]);
      expect(sale.face_value_sold).toBe(round2(bid.reduce((n, r) => n + r.face_amount, 0)));
    }
    const { scope, certificates, struck_to_county, face_amount, histogram } = bidRateExample.data;
    const rows = of(scope.county[0]!, scope.tax_year[0]!);
    const bid = rows.filter((r) => !r.struck_to_county);
    expect([certificates, struck_to_county]).toEqual([bid.length, rows.length - bid.length]);
    expect(face_amount).toBe(round2(bid.reduce((n, r) => n + r.face_amount, 0)));
    for (const bucket of histogram) expect(bucket.certificates).toBe(bid.filter((r) => r.interest_rate === bucket.rate).length);
  });
});
