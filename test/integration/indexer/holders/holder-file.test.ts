import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDatasetState } from '../../../../services/control/ingest/freshness.ts';
import { listQuarantine } from '../../../../services/control/ingest/quarantine.ts';
import { holderId } from '../../../../services/domain/ids.ts';
import { type FileIngest, fixtureFile, openFileIngest, rejection } from '../../../helpers/file-ingest.ts';

let t: FileIngest;
const documents = () => t.documents('holders');

/** Loads a holder file as the worker would; the job's county, year and vendor are ignored. */
function load(name: string, jobId: string, at: string) {
  const file = fixtureFile('holders', name);
  return t.load({ dataset: 'holders', file, vendor: 'manual', county: 'alachua', taxYear: 2024, jobId }, at);
}

beforeAll(async () => {
  t = await openFileIngest(import.meta.url);
});
afterAll(() => t.teardown());

describe('a holder file through processFile', () => {
  it('loads a good holder file: exact documents, freshness marked', async () => {
    const at = '2025-02-01T10:00:00.000Z';
    const outcome = await load('good.csv', 'holders-good', at);
    expect(outcome).toMatchObject({ format: 'holders-csv', rowsRead: 3, indexed: 3, updated: 0, quarantined: 0 });
    expect(await documents()).toEqual(
      [
        {
          id: holderId('Gulf Coast Lien Fund II, LLC'),
          name: 'Gulf Coast Lien Fund II, LLC',
          normalized_name: 'gulf coast lien fund ii llc',
          certificate_count: 42,
          outstanding_face_amount: 61234.56,
          counties: ['alachua', 'miami-dade'],
          first_seen_tax_year: 2019,
          last_seen_tax_year: 2024,
          updated_at: at,
        },
        {
          id: holderId('Sunshine Tax Certs Inc.'),
          name: 'Sunshine Tax Certs Inc.',
          normalized_name: 'sunshine tax certs inc',
          certificate_count: 3,
          outstanding_face_amount: 1500.1,
          counties: ['orange'],
          first_seen_tax_year: 2023,
          last_seen_tax_year: 2023,
          updated_at: at,
        },
        {
          id: holderId('O\'Brien Capital "Tax" Partners'),
          name: 'O\'Brien Capital "Tax" Partners',
          normalized_name: 'o brien capital tax partners',
          certificate_count: 0,
          outstanding_face_amount: 0,
          counties: ['alachua', 'duval'],
          first_seen_tax_year: 2018,
          last_seen_tax_year: 2021,
          updated_at: at,
        },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect((await getDatasetState(t.runtime.sql, 'holders')).lastIngestedAt).toBe(at);
    expect((await getDatasetState(t.runtime.sql, 'lands_available')).lastIngestedAt).toBeNull();
  });

  it.each([
    ['truncated.csv', 'truncated_file'],
    ['empty.csv', 'empty_file'],
    ['header-only.csv', 'empty_file'],
    ['other-header.csv', 'unknown_format'],
  ])('%s is refused (%s) and changes nothing', async (name, code) => {
    const before = await documents();
    const quarantineBefore = await listQuarantine(t.runtime.sql);
    expect(await rejection(load(name, `holders-${name}`, '2025-02-02T10:00:00.000Z'))).toBe(code);
    expect(await documents()).toEqual(before);
    expect(await listQuarantine(t.runtime.sql)).toEqual(quarantineBefore);
    expect((await getDatasetState(t.runtime.sql, 'holders')).lastIngestedAt).toBe('2025-02-01T10:00:00.000Z');
  });

  it('loads the good rows of a file with bad rows and quarantines the rest with every reason', async () => {
    const at = '2025-02-04T10:00:00.000Z';
    const outcome = await load('bad-rows.csv', 'holders-bad', at);
    // Line 3 is the Gulf Coast holder of good.csv spelled in capitals: the same id, replaced.
    expect(outcome).toMatchObject({ rowsRead: 7, indexed: 1, updated: 1, quarantined: 5 });
    const rows = await listQuarantine(t.runtime.sql, { runId: 'holders-bad' });
    expect(rows.map((r) => ({ line: r.line, raw: r.raw, reasons: r.reasons }))).toEqual([
      {
        line: 4,
        raw: 'Broken Row LLC,x,-$5.00,atlantis;alachua,2024,2019',
        reasons: [
          'certificate_count: "x" is not a whole number',
          'outstanding_face_amount: "-$5.00" is negative',
          'counties: "atlantis" is not a county slug',
          'last_seen_tax_year: 2019 is before first_seen_tax_year 2024',
        ],
      },
      {
        line: 5,
        raw: 'Alachua County,9,900,alachua,2020,2024',
        reasons: ['holder_name: "Alachua County" is a county; county-held certificates have no holder record'],
      },
      {
        line: 6,
        raw: ',1,1.00,,,',
        reasons: ['holder_name: required', 'counties: required', 'first_seen_tax_year: required', 'last_seen_tax_year: required'],
      },
      { line: 7, raw: 'Short Row LLC,2', reasons: ['row: has 2 columns, expected 6'] },
      {
        line: 8,
        raw: '"ACME Tax Fund, LLC",1,1,alachua,2020,2020',
        reasons: ['holder_name: "ACME Tax Fund, LLC" is listed again (first on line 2)'],
      },
    ]);
    const docs = await documents();
    expect(docs).toHaveLength(4);
    expect(docs.find((d) => d.id === holderId('Gulf Coast Lien Fund II, LLC'))).toMatchObject({
      name: 'GULF COAST LIEN FUND II LLC',
      certificate_count: 1,
      counties: ['duval'],
      updated_at: at,
    });
    expect(docs.find((d) => d.id === holderId('Acme Tax Fund LLC'))).toMatchObject({ name: 'Acme Tax Fund LLC', certificate_count: 5 });
    expect((await getDatasetState(t.runtime.sql, 'holders')).lastIngestedAt).toBe(at);
  });
});
