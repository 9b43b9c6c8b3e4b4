import { describe, expect, it } from 'vitest';
import { ID_SLICES } from '../../../../../../../services/api/routes/analytics/holders/build-scan.ts';
import { holderGroupId } from '../../../../../../../services/domain/holder-groups.ts';

/** A keyword range as the engine reads it: byte order, which is code-unit order for ASCII ids. */
const inSlice = (id: string, s: (typeof ID_SLICES)[number]) => (s.gte === undefined || id >= s.gte) && (s.lt === undefined || id < s.lt);

describe('holder groups: the id slices the composite scans run in', () => {
  it('put every id in exactly one slice, real ids and odd forms alike', () => {
    const ids = [
      '',
      'grp_',
      'grp_0',
      'grp_3fffffffffffffffffff',
      'grp_4',
      'grp_8',
      'grp_c',
      'grp_fffffffffffffffffffff',
      'zzz',
      'GRP_1',
      'grp_G',
    ];
    for (let n = 0; n < 500; n++) ids.push(holderGroupId(`HOLDER ${n}`));
    for (const id of ids)
      expect(
        ID_SLICES.filter((s) => inSlice(id, s)),
        id,
      ).toHaveLength(1);
  });

  it('cut real ids into slices of about equal size', () => {
    const counts = ID_SLICES.map(() => 0);
    for (let n = 0; n < 4000; n++) {
      const id = holderGroupId(`HOLDER ${n}`);
      counts[ID_SLICES.findIndex((s) => inSlice(id, s))]! += 1;
    }
    for (const c of counts) expect(c).toBeGreaterThan(700);
  });
});
