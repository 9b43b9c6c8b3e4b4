import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatasetState } from '../../../../services/control/ingest/freshness.ts';
import { getRun } from '../../../../services/control/ingest/ingest-runs.ts';
import { listQuarantine } from '../../../../services/control/ingest/quarantine.ts';
import { certificateId } from '../../../../services/domain/ids.ts';
import { type FileIngest, fixtureFile, openFileIngest, rejection } from '../../../helpers/file-ingest.ts';

const PARCELS = 'https://parcels.example.com/v1/parcels';
let t: FileIngest;
const documents = () => t.documents('lands-available');

/** Loads a list for Alachua as the worker would, storing quarantined rows in SQLite. */
function load(name: string, jobId: string, at: string, county = 'alachua') {
  const file = fixtureFile('lands-available', name);
  // The job's taxYear and vendor mean nothing for a lands list: rows carry their own years.
  return t.load({ dataset: 'lands-available', file, vendor: 'county_local', county, taxYear: 1999, jobId }, at);
}

beforeAll(async () => {
  t = await openFileIngest(import.meta.url, { PARCEL_BASE_URL: PARCELS });
});
afterAll(() => t.teardown());

describe('a lands-available list through processFile', () => {
  it('loads a good list: exact documents, freshness marked', async () => {
    const at = '2025-02-01T10:00:00.000Z';
    const outcome = await load('good.csv', 'lands-good', at);
    expect(outcome).toMatchObject({ format: 'lands-available-csv', rowsRead: 2, indexed: 2, updated: 0, quarantined: 0 });
    expect((await getRun(t.runtime.sql, 'lands-good'))?.fileSha256).toMatch(/^[0-9a-f]{64}$/);
    const expected = [
      {
        id: certificateId('alachua', 2019, '2019-001234'),
        certificate_number: '2019-001234',
        certificate_number_normalized: '2019001234',
        county_slug: 'alachua',
        county_name: 'Alachua',
        parcel_id: '01234-005-000',
        parcel_id_normalized: '01234005000',
        tax_year: 2019,
        status: 'lands_available',
        face_amount: 1234.56,
        opening_bid: 3456.78,
        tax_deed_application_date: '2022-06-15',
        available_since: '2022-09-01',
        owner_name: 'SMITH, JOHN & MARY',
        site_address_full: '123 NW 5TH AVE, GAINESVILLE, FL 32601',
        parcel_url: `${PARCELS}/alachua/01234-005-000`,
        ingested_at: at,
      },
      {
        id: certificateId('alachua', 2020, '2020-000077'),
        certificate_number: '2020-000077',
        certificate_number_normalized: '2020000077',
        county_slug: 'alachua',
        county_name: 'Alachua',
        parcel_id: '17-10-20-0000-0001-0010',
        parcel_id_normalized: '171020000000010010',
        tax_year: 2020,
        status: 'lands_available',
        face_amount: 512,
        opening_bid: 0,
        tax_deed_application_date: '2023-04-10',
        available_since: '2023-04-10',
        owner_name: 'OAK GROVE HOLDINGS INC',
        site_address_full: '77 SE 2ND ST, HIGH SPRINGS, FL 32643',
        parcel_url: `${PARCELS}/alachua/17-10-20-0000-0001-0010`,
        ingested_at: at,
      },
    ].sort((a, b) => a.id.localeCompare(b.id));
    expect(await documents()).toEqual(expected);
    expect((await getDatasetState(t.runtime.sql, 'lands_available')).lastIngestedAt).toBe(at);
    expect((await getDatasetState(t.runtime.sql, 'holders')).lastIngestedAt).toBeNull();
  });

  it('a truncated list changes nothing: no document, no quarantine row, no freshness', async () => {
    const before = await documents();
    const quarantineBefore = await listQuarantine(t.runtime.sql);
    expect(await rejection(load('truncated.csv', 'lands-truncated', '2025-02-02T10:00:00.000Z'))).toBe('truncated_file');
    expect(await documents()).toEqual(before);
    expect(await listQuarantine(t.runtime.sql)).toEqual(quarantineBefore);
    expect((await getDatasetState(t.runtime.sql, 'lands_available')).lastIngestedAt).toBe('2025-02-01T10:00:00.000Z');
  });

  it.each([
    ['empty.csv', 'empty_file'],
    ['header-only.csv', 'empty_file'],
    ['other-header.csv', 'unknown_format'],
  ])('%s is refused (%s) and changes nothing', async (name, code) => {
    const before = await documents();
    expect(await rejection(load(name, `lands-${name}`, '2025-02-03T10:00:00.000Z'))).toBe(code);
    expect(await documents()).toEqual(before);
  });

  it('a job for an unknown county is refused', async () => {
    expect(await rejection(load('good.csv', 'x', '2025-02-03T10:00:00.000Z', 'atlantis'))).toBe('wrong_county');
  });

  it('loads the good rows of a list with bad rows and quarantines the rest with every reason', async () => {
    const at = '2025-02-04T10:00:00.000Z';
    const outcome = await load('bad-rows.csv', 'lands-bad', at);
    expect(outcome).toMatchObject({ rowsRead: 6, indexed: 0, updated: 1, quarantined: 5 });
    const rows = await listQuarantine(t.runtime.sql, { runId: 'lands-bad' });
    expect(rows.map((r) => ({ line: r.line, reasons: r.reasons }))).toEqual([
      {
        line: 3,
        reasons: [
          'opening_bid: "-$10.00" is negative',
          'tax_deed_application_date: "02/30/2022" is not a real calendar date',
          'available_since: "13/01/2022" is not a real calendar date',
        ],
      },
      { line: 4, reasons: ['available_since: 2022-04-30 is before tax_deed_application_date 2022-05-01'] },
      {
        line: 5,
        reasons: [
          'tax_year: "19" is not a four-digit year',
          'face_amount: "$1,2x3" is not a dollar amount',
          'certificate_number: required',
          'parcel_id: required',
          'opening_bid: required',
          'tax_deed_application_date: required',
          'available_since: required',
          'owner_name: required',
          'site_address_full: required',
        ],
      },
      { line: 6, reasons: ['certificate_number: 2019-001234 (tax year 2019) is listed again (first on line 2)'] },
      { line: 7, reasons: ['row: has 4 columns, expected 9'] },
    ]);
    expect(rows[1]?.raw).toBe(
      '2018-000999,09999-001-000,2018,$300.00,$950.00,05/01/2022,04/30/2022,ROE RICHARD,"9 OAK LN, NEWBERRY, FL 32669"',
    );
    const badSha = (await getRun(t.runtime.sql, 'lands-bad'))?.fileSha256;
    expect(rows.every((r) => r.fileSha256 === badSha)).toBe(true);
    // Line 2 re-listed a certificate of the good list: the same cert_ id, replaced in place.
    const docs = await documents();
    expect(docs).toHaveLength(2);
    expect(docs.find((d) => d.id === certificateId('alachua', 2019, '2019-001234'))).toMatchObject({ ingested_at: at });
    expect((await getDatasetState(t.runtime.sql, 'lands_available')).lastIngestedAt).toBe(at);
  });

  it('reloading the same list is idempotent: documents updated, the new run keeps quarantine rows of its own', async () => {
    const outcome = await load('bad-rows.csv', 'lands-bad-retry', '2025-02-05T10:00:00.000Z');
    expect(outcome).toMatchObject({ indexed: 0, updated: 1, quarantined: 5 });
    expect(await documents()).toHaveLength(2);
    // Each run's refused rows stay listable by run: a retry or a later run never hides an earlier run's.
    expect(await listQuarantine(t.runtime.sql, { runId: 'lands-bad-retry' })).toHaveLength(5);
    expect(await listQuarantine(t.runtime.sql, { runId: 'lands-bad' })).toHaveLength(5);
    expect(await listQuarantine(t.runtime.sql, { file: (await getRun(t.runtime.sql, 'lands-bad-retry'))!.fileSha256! })).toHaveLength(10);
  });
});
