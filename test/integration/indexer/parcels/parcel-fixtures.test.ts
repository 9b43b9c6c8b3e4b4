import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQuarantine } from '../../../../services/control/ingest/quarantine.ts';
import { type FileIngest, fixtureFile, openFileIngest, rejection } from '../../../helpers/file-ingest.ts';

// The parcels-csv fixtures through processFile: every quarantine reason of the format, one row each.
let t: FileIngest;
const load = (name: string, jobId: string) =>
  t.load(
    { dataset: 'parcels', file: fixtureFile('parcels-csv', name), vendor: 'manual', county: 'alachua', taxYear: 2025, jobId },
    '2026-02-01T10:00:00.000Z',
  );

beforeAll(async () => {
  t = await openFileIngest(import.meta.url);
});
afterAll(() => t.teardown());

describe('parcels-csv fixtures', () => {
  it('loads the good file', async () => {
    expect(await load('good.csv', 'good')).toMatchObject({ rowsRead: 2, indexed: 2, quarantined: 0 });
    expect((await t.documents('parcels')).map((d) => [d.id, d.situs_city, d.homestead])).toEqual([
      ['alachua:01234005000', 'GAINESVILLE', true],
      ['alachua:171020000000010010', 'HIGH SPRINGS', false],
    ]);
  });

  it('quarantines each bad row with its reasons', async () => {
    expect(await load('bad-rows.csv', 'bad')).toMatchObject({ rowsRead: 6, indexed: 1, quarantined: 5 });
    const rows = await listQuarantine(t.runtime.sql, { runId: 'bad' });
    expect(rows.map((r) => [r.line, r.reasons])).toEqual([
      [3, ['county_number: "16" (Broward, revenue county 16) is not this file\'s county Alachua (revenue county 11)']],
      [4, ['location: 29.6552,82.3301 is outside Florida (lat 24.3..31.1, lon -87.7..-79.8)']],
      [5, ["location: 25.7617,-80.1918 is 485 km from Alachua County's interior point, more than its 120 km"]],
      [
        6,
        [
          'just_value: "$185000" is not a whole non-negative number',
          'use_code: "1" is not a three-digit use code',
          'homestead: "X" is not Y or N',
          'situs_zip: "3260" is not a five-digit ZIP code',
        ],
      ],
      [7, ['parcel_id: 01234-006-000 is listed again (first on line 2)']],
    ]);
  });

  it('rejects a file with another header, changing nothing', async () => {
    expect(await rejection(load('other-header.csv', 'other'))).toBe('unknown_format');
  });
});
