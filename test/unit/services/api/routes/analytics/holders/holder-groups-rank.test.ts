import { describe, expect, it } from 'vitest';
import { foldGroups, orderGroups } from '../../../../../../../services/api/routes/analytics/holders/rank-groups.ts';

describe('holder groups: folding and orders (pure)', () => {
  it('folds (group, name) buckets: counts and cents add up, the most common name wins, code-point order on a tie', () => {
    const groups = foldGroups(
      [
        { key: { group: 'grp_a', name: 'Fl Tax Lien Fund' }, doc_count: 2, face: { value: 100.1 } },
        { key: { group: 'grp_a', name: 'FL TAX LIEN FUND' }, doc_count: 2, face: { value: 0.2 } },
        { key: { group: 'grp_b', name: 'TLGFY' }, doc_count: 1, face: { value: 5 }, matches: { doc_count: 1 } },
      ],
      true,
    );
    expect(groups).toEqual([
      { group_id: 'grp_a', name: 'FL TAX LIEN FUND', certificates: 4, face_cents: 10030, matched: false },
      { group_id: 'grp_b', name: 'TLGFY', certificates: 1, face_cents: 500, matched: true },
    ]);
  });

  it('orders every group, ties broken by group id', () => {
    const g = (group_id: string, name: string, certificates: number, face_cents: number, median_rate: number) => ({
      group_id,
      name,
      certificates,
      face_cents,
      matched: true,
      median_rate,
    });
    const all = [g('grp_c', 'b', 5, 10, 18), g('grp_a', 'C', 5, 30, 0.25), g('grp_b', 'a', 9, 20, 0.25)];
    const ids = (sort: Parameters<typeof orderGroups>[1]) => orderGroups(all, sort).map((x) => x.group_id);
    expect(ids('certificates_desc')).toEqual(['grp_b', 'grp_a', 'grp_c']);
    expect(ids('face_desc')).toEqual(['grp_a', 'grp_b', 'grp_c']);
    expect(ids('median_rate_asc')).toEqual(['grp_a', 'grp_b', 'grp_c']);
    expect(ids('name_asc')).toEqual(['grp_b', 'grp_c', 'grp_a']);
  });
});
