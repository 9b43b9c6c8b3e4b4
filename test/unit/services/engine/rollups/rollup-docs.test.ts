import { describe, expect, it } from 'vitest';
import {
  entryOf,
  isEmpty,
  type RolledCertificate,
  RollupTally,
  rollupClass,
  rollupDocument,
} from '../../../../../services/engine/rollups/rollup-docs.ts';

const sold: RolledCertificate = {
  county_slug: 'bay',
  tax_year: 2023,
  vendor: 'certbid',
  interest_rate: 0.25,
  face_amount: 1234.56,
  struck_to_county: false,
  status: 'sold',
  sale_date: '2024-05-28',
  redeemed_date: null,
};
const redeemed: RolledCertificate = { ...sold, status: 'redeemed', redeemed_date: '2025-03-14', face_amount: 100.01 };

describe('RollupTally', () => {
  it('splits certificates as the bid-rate analytics do: struck, sold to a bidder, still waiting', () => {
    expect(rollupClass({ struck_to_county: true, status: 'available' })).toBe('struck');
    expect(rollupClass({ struck_to_county: false, status: 'advertised' })).toBe('other');
    expect(rollupClass({ struck_to_county: null, status: 'redeemed' })).toBe('sold');
  });

  it('adds counts, cents and the day of each redemption; the cohort leaves out struck and cancelled', () => {
    const t = new RollupTally();
    t.add(sold);
    t.add(redeemed);
    t.add({ ...sold, status: 'cancelled' });
    t.add({ ...sold, struck_to_county: true, status: 'available', interest_rate: 18 });
    const entries = [...t.entries.values()];
    const rates = entries.filter((e) => e.key.kind === 'rates');
    expect(rates.map((e) => [e.key.class, e.key.cancelled, e.key.interest_rate, e.count, e.faceCents])).toEqual([
      ['sold', false, 0.25, 2, 133457],
      ['sold', true, 0.25, 1, 123456],
      ['struck', false, 18, 1, 123456],
    ]);
    const cohort = entries.filter((e) => e.key.kind === 'redemptions');
    expect(cohort.map((e) => [e.key.redeemed_month, e.count, e.days?.[13]])).toEqual([
      [undefined, 1, undefined],
      ['2025-03', 1, 1],
    ]);
  });

  it('a certificate added and taken back leaves nothing; a document reads back as its entry', () => {
    const t = new RollupTally();
    t.add(redeemed);
    t.add(redeemed, -1);
    expect([...t.entries.values()].every(isEmpty)).toBe(true);
    const u = new RollupTally();
    u.add(redeemed, 1, 3, 999);
    for (const e of u.entries.values()) expect(entryOf(rollupDocument(e))).toEqual(e);
  });

  it('absorbing a tally adds the same sums as merging it, and leaves the absorbed one empty', () => {
    const grouped = { ...sold, holder_group_id: 'grp_a', holder_name: 'A LLC', holder_group_name: 'A LLC' };
    const make = (...certs: RolledCertificate[]) => {
      const t = new RollupTally();
      for (const c of certs) t.add(c);
      return t;
    };
    const merged = make(grouped, redeemed);
    merged.merge(make(grouped, { ...grouped, county_slug: 'clay', interest_rate: 3 }));
    const absorbed = make(grouped, redeemed);
    const other = make(grouped, { ...grouped, county_slug: 'clay', interest_rate: 3 });
    absorbed.absorb(other);
    expect(other.entries.size).toBe(0);
    expect([...absorbed.entries.entries()].sort()).toEqual([...merged.entries.entries()].sort());
  });
});
