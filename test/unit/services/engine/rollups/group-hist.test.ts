import { describe, expect, it } from 'vitest';
import {
  addToHist,
  byCount,
  compactHist,
  emptyHist,
  histEmpty,
  histMedian,
  histName,
  histNegative,
  mergeHist,
} from '../../../../../services/engine/rollups/group-hist.ts';
import {
  entryOf,
  type RolledCertificate,
  RollupTally,
  rollupDocument,
  withWholeIndexGroups,
} from '../../../../../services/engine/rollups/rollup-docs.ts';

const cert = {
  county_slug: 'bay',
  tax_year: 2023,
  interest_rate: 0.25,
  status: 'sold',
  holder_name: 'FL TAX LIEN FUND 11 LLC',
  holder_group_name: 'FL TAX LIEN FUND',
  county_held: false,
};

describe('group counts (pure)', () => {
  it('count each field the scan aggregates; a certificate without a rate or status is in no such count', () => {
    const h = emptyHist();
    addToHist(h, cert, 2, 5000);
    addToHist(h, { ...cert, interest_rate: null, status: null, tax_year: 2022, holder_name: 'Fl Tax Lien Fund 3, L.L.C.' }, 1, 700);
    expect(h.rates).toEqual({ '0.25': 2 });
    expect(h.statuses).toEqual({ sold: 2 });
    expect(h.status_cents).toEqual({ sold: 5000 });
    expect(h.years).toEqual({ '2022': 1, '2023': 2 });
    expect(h.members).toEqual({ 'FL TAX LIEN FUND 11 LLC': 2, 'Fl Tax Lien Fund 3, L.L.C.': 1 });
    expect(h.held).toBe(0);
  });

  it('adding and taking back leaves nothing; below zero is drift', () => {
    const h = emptyHist();
    addToHist(h, cert, 3, 300);
    addToHist(h, cert, -3, -300);
    expect(histEmpty(h)).toBe(true);
    expect(compactHist(h)).toEqual(emptyHist());
    addToHist(h, cert, -1, -100);
    expect(histNegative(h)).toBe(true);
  });

  it('merges, and derives the median (nearest rank), the display name and the terms order', () => {
    const a = emptyHist();
    addToHist(a, { ...cert, interest_rate: 18, holder_group_name: 'B NAME' }, 2, 0);
    const b = emptyHist();
    addToHist(b, { ...cert, interest_rate: 0.25, holder_group_name: 'A NAME' }, 2, 0);
    addToHist(b, { ...cert, interest_rate: 5, holder_group_name: 'A NAME' }, 1, 0);
    const m = mergeHist(a, b);
    // 0.25, 0.25, 5 | 18, 18: rank 3
    expect(histMedian(m)).toBe(5);
    // A NAME 3 against B NAME 2; on a tie the first in code-point order.
    expect(histName(m)).toBe('A NAME');
    expect(histName(mergeHist(a, a))).toBe('B NAME');
    expect(byCount({ b: 1, a: 1, c: 2, z: 0 })).toEqual([
      ['c', 2],
      ['a', 1],
      ['b', 1],
    ]);
    expect(histMedian(emptyHist())).toBe(0);
  });
});

describe('group rollups in the tally (pure)', () => {
  const held: RolledCertificate = { ...cert, holder_group_id: 'grp_1', face_amount: 10.5, vendor: 'certbid', struck_to_county: false };

  it('a grouped certificate adds to its group in its county, and those add up to the whole index; none without a group', () => {
    const t = new RollupTally();
    t.add(held);
    t.add({ ...held, county_slug: 'gulf' });
    t.add({ ...held, holder_group_id: null });
    const groups = (tally: RollupTally) =>
      [...tally.entries.values()]
        .filter((e) => e.key.kind === 'groups' || e.key.kind === 'groups_all')
        .map((e) => [e.key.kind, e.key.group_id, e.key.county_slug, e.count, e.faceCents]);
    expect(groups(t)).toEqual([
      ['groups', 'grp_1', 'bay', 1, 1050],
      ['groups', 'grp_1', 'gulf', 1, 1050],
    ]);
    expect(groups(withWholeIndexGroups(t))).toEqual([
      ['groups', 'grp_1', 'bay', 1, 1050],
      ['groups', 'grp_1', 'gulf', 1, 1050],
      ['groups_all', 'grp_1', undefined, 2, 2100],
    ]);
    const all = [...withWholeIndexGroups(t).entries.values()].find((e) => e.key.kind === 'groups_all')!;
    expect(all.hist!.counties).toEqual({ bay: 1, gulf: 1 });
    const only = new RollupTally();
    only.add(held, 1, 1, 1050, 'market');
    expect([...only.entries.values()].some((e) => e.key.kind === 'groups')).toBe(false);
  });

  it('a group document carries what its orders sort on and its spellings, and reads back as its entry', () => {
    const t = new RollupTally();
    t.add(held);
    t.add({ ...held, interest_rate: 3, holder_name: 'Fl Tax Lien Fund 3, L.L.C.' });
    const all = [...withWholeIndexGroups(t).entries.values()].find((e) => e.key.kind === 'groups_all')!;
    const doc = rollupDocument(all);
    expect(doc.rollup).toMatchObject({
      kind: 'groups_all',
      group_id: 'grp_1',
      count: 2,
      face_cents: 2100,
      median_rate: 0.25,
      name_key: 'FL TAX LIEN FUND',
      members: ['FL TAX LIEN FUND 11 LLC', 'Fl Tax Lien Fund 3, L.L.C.'],
    });
    expect(entryOf(JSON.parse(JSON.stringify(doc)))).toEqual(all);
    const back = new RollupTally();
    back.merge(t);
    back.add(held, -1);
    back.add({ ...held, interest_rate: 3, holder_name: 'Fl Tax Lien Fund 3, L.L.C.' }, -1);
    for (const e of back.entries.values()) expect(e.count).toBe(0);
  });
});
