import { describe, expect, it } from 'vitest';
import { CERTIFICATE_PARQUET } from '../../../../services/bulk/certificate-columns.ts';
import { BULK_FORMATS, bulkFileName, manifestName, parseBulkFileName } from '../../../../services/bulk/names.ts';
import { CERTIFICATE_COLUMNS } from '../../../../services/domain/certificate-row.ts';

describe('bulk file names', () => {
  it('parse back to the key they were made from', () => {
    for (const format of BULK_FORMATS) {
      const snapshot = { dataset: 'certificates', kind: 'snapshot', format, county: 'miami-dade', taxYear: 2024, day: null } as const;
      expect(parseBulkFileName(bulkFileName(snapshot))).toEqual(snapshot);
      const single = { dataset: 'counties', kind: 'snapshot', format, county: null, taxYear: null, day: null } as const;
      expect(parseBulkFileName(bulkFileName(single))).toEqual(single);
      const delta = { dataset: 'certificates', kind: 'delta', format, county: null, taxYear: null, day: '2026-11-28' } as const;
      expect(parseBulkFileName(bulkFileName(delta))).toEqual(delta);
      const lands = { dataset: 'lands-available', kind: 'snapshot', format, county: 'st-johns', taxYear: 2019, day: null } as const;
      expect(parseBulkFileName(bulkFileName(lands))).toEqual(lands);
      const holders = { dataset: 'holders', kind: 'snapshot', format, county: null, taxYear: null, day: null } as const;
      expect(parseBulkFileName(bulkFileName(holders))).toEqual(holders);
      const sales = { dataset: 'certificate-sales', kind: 'delta', format, county: null, taxYear: null, day: '2026-11-28' } as const;
      expect(parseBulkFileName(bulkFileName(sales))).toEqual(sales);
    }
    expect(bulkFileName({ dataset: 'certificates', kind: 'snapshot', format: 'csv', county: 'st-johns', taxYear: 2023, day: null })).toBe(
      'certificates.st-johns.2023.snapshot.csv.gz',
    );
  });

  it('refuse every name the service does not write: traversal, separators, sidecars, other extensions', () => {
    for (const name of [
      '..',
      '../certificates.snapshot.parquet',
      'certificates.snapshot.parquet/..',
      'a/certificates.snapshot.parquet',
      'certificates..snapshot.parquet',
      'certificates%2Fsnapshot.parquet',
      'certificates.%2e%2e.2024.snapshot.parquet',
      'certificates.alachua.2023.snapshot.parquet\\x',
      manifestName('certificates.alachua.2023.snapshot.parquet'),
      'certificates.alachua.2023.snapshot.json',
      'holders.alachua.snapshot.parquet',
      'parcels.snapshot.parquet',
      '',
    ])
      expect(parseBulkFileName(name), name).toBeNull();
  });
});

describe('certificate Parquet columns', () => {
  it('follow the row schema, one type per field in its order', () => {
    expect(CERTIFICATE_PARQUET.map(([name]) => name)).toEqual(CERTIFICATE_COLUMNS);
    expect(Object.fromEntries(CERTIFICATE_PARQUET)).toMatchObject({
      face_amount: 'DECIMAL(12,2)',
      sale_date: 'DATE',
      redeemed: 'BOOLEAN',
    });
  });
});
