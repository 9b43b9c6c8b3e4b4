import { createReadStream } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RawRow } from '../../../../indexer/adapters/types.ts';
import { FileRejectedError } from '../../../../indexer/errors.ts';
import { certificateId } from '../../../../services/domain/ids.ts';
import { readLandsRows, toLandsInput } from '../../../../indexer/adapters/lands-available-csv.ts';
import { describeProblem } from '../../../../indexer/adapters/types.ts';
import { readable } from '../adapters/sample-records.ts';
import { buildLandsRecord } from '../../../../indexer/lands-available/build-lands-record.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

const county = loadRegistry().county('alachua')!;
const ctx = { county, parcelBaseUrl: 'https://parcels.example.com/v1/parcels', ingestedAt: '2025-01-02T03:04:05.000Z' };
const fixture = (name: string) => new URL(`../../../../fixtures/files/lands-available/${name}`, import.meta.url);

async function read(name: string): Promise<RawRow[]> {
  const rows: RawRow[] = [];
  for await (const row of readLandsRows(createReadStream(fixture(name)))) rows.push(row);
  return rows;
}

async function rejection(name: string): Promise<{ code: string; message: string }> {
  try {
    await read(name);
  } catch (err) {
    if (err instanceof FileRejectedError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error(`${name} was not rejected`);
}

const build = (row: RawRow) => buildLandsRecord(toLandsInput(row), ctx);

describe('lands-available-csv: good file', () => {
  it('reads each row with its line and maps it to canonical inputs', async () => {
    const rows = await read('good.csv');
    expect(rows.map((r) => r.line)).toEqual([2, 3]);
    expect(rows.map((r) => toLandsInput(r))).toEqual([
      {
        input: {
          certificate_number: '2019-001234',
          parcel_id: '01234-005-000',
          tax_year: 2019,
          face_amount: 1234.56,
          opening_bid: 3456.78,
          tax_deed_application_date: '2022-06-15',
          available_since: '2022-09-01',
          owner_name: 'SMITH, JOHN & MARY',
          site_address_full: '123 NW 5TH AVE, GAINESVILLE, FL 32601',
        },
        reasons: [],
      },
      {
        input: {
          certificate_number: '2020-000077',
          parcel_id: '17-10-20-0000-0001-0010',
          tax_year: 2020,
          face_amount: 512,
          opening_bid: 0,
          tax_deed_application_date: '2023-04-10',
          available_since: '2023-04-10',
          owner_name: 'OAK GROVE HOLDINGS INC',
          site_address_full: '77 SE 2ND ST, HIGH SPRINGS, FL 32643',
        },
        reasons: [],
      },
    ]);
  });

  it('builds a record that keeps the cert_ id of its certificate', async () => {
    const [row] = await read('good.csv');
    expect(build(row!)).toEqual({
      ok: true,
      record: {
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
        parcel_url: 'https://parcels.example.com/v1/parcels/alachua/01234-005-000',
        ingested_at: '2025-01-02T03:04:05.000Z',
      },
    });
    expect(certificateId('alachua', 2019, '2019-001234')).toBe('cert_7311c95c0ae2780443f1');
  });

  it('an opening bid of zero and a listing on the application day are allowed', async () => {
    const [, row] = await read('good.csv');
    expect(build(row!)).toMatchObject({ ok: true, record: { opening_bid: 0, available_since: '2023-04-10' } });
  });
});

describe('lands-available-csv: bad rows', () => {
  it('gives every reason of each bad row', async () => {
    const rows = await read('bad-rows.csv');
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7]);
    const results = rows.map((r) => build(r));
    expect(results.map((r) => r.ok)).toEqual([true, false, false, false, true, false]);
    expect(results.map((r) => (r.ok ? [] : r.reasons.map(describeProblem)))).toEqual([
      [],
      [
        'opening_bid: "-$10.00" is negative',
        'tax_deed_application_date: "02/30/2022" is not a real calendar date',
        'available_since: "13/01/2022" is not a real calendar date',
      ],
      ['available_since: 2022-04-30 is before tax_deed_application_date 2022-05-01'],
      [
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
      // Line 6 repeats line 2: a valid row here, refused as a repeat by the loader.
      [],
      ['row: has 4 columns, expected 9'],
    ]);
  });

  it('an unparsable value is null in the input, with its reason', async () => {
    const rows = await read('bad-rows.csv');
    expect(readable(toLandsInput(rows[1]!))).toEqual({
      input: {
        certificate_number: '2019-000555',
        parcel_id: '05555-001-000',
        tax_year: 2019,
        face_amount: 800,
        opening_bid: null,
        tax_deed_application_date: null,
        available_since: null,
        owner_name: 'DOE JANE',
        site_address_full: '5 MAIN ST, ALACHUA, FL 32615',
      },
      reasons: [
        'opening_bid: "-$10.00" is negative',
        'tax_deed_application_date: "02/30/2022" is not a real calendar date',
        'available_since: "13/01/2022" is not a real calendar date',
      ],
    });
  });
});

describe('lands-available-csv: files that must not load', () => {
  it.each([
    ['empty.csv', 'empty_file'],
    ['header-only.csv', 'empty_file'],
    ['truncated.csv', 'truncated_file'],
    ['other-header.csv', 'unknown_format'],
  ])('%s -> %s', async (name, code) => {
    expect((await rejection(name)).code).toBe(code);
  });
});
