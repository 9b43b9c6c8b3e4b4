import { describe, expect, it } from 'vitest';
import { generateState } from '../../../../services/generator/generate-state.ts';

/**
 * The tightest export format (taxgavel-fixed) keeps 20 characters of a
 * certificate number, 30 of a parcel id, 60 of holder, owner and address, 10 of a
 * batch. Every generated record must fit, for any seed, or a benchmark with an
 * unlucky seed fails to write its files.
 */
describe('generated records fit every export format', () => {
  it.each([1, 5, 42, 4242, 20261122])('seed %i', (seed) => {
    const state = generateState({ certificates: 20_000, seed, today: '2026-11-22' });
    const tooLong: string[] = [];
    for (const r of state.allRecords()) {
      const limits: [string, string | null, number][] = [
        ['certificate_number', r.certificate_number, 20],
        ['parcel_id', r.parcel_id, 30],
        ['holder_name', r.holder_name, 60],
        ['owner_name', r.owner_name, 60],
        ['site_address_full', r.site_address_full, 60],
        ['batch_number', r.batch_number, 10],
      ];
      for (const [field, value, max] of limits) if (value !== null && value.length > max) tooLong.push(`${field}: ${value}`);
    }
    expect(tooLong.slice(0, 5)).toEqual([]);
  });
});
