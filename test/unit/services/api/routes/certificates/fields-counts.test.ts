import { describe, expect, it } from 'vitest';
import { certificateFields, vendorLists } from '../../../../../../services/api/routes/certificates/fields.ts';
import { orderCounts } from '../../../../../../services/api/routes/certificates/read-stats.ts';
import { CERTIFICATE_COLUMNS } from '../../../../../../services/api/routes/certificates/row.ts';
import { registry } from '../../../../../helpers/registry.ts';

describe('certificate field dictionary', () => {
  it('derives one descriptor per row field, in the row order', () => {
    const { fields } = certificateFields(registry);
    expect(fields.map((f) => f.name)).toEqual(CERTIFICATE_COLUMNS);
    expect(new Set(fields.map((f) => f.type))).toEqual(new Set(['string', 'integer', 'number', 'date', 'boolean', 'enum']));
  });

  it("writes the spec's vendor lists in the registry's codes", () => {
    const lists = vendorLists(registry);
    const code = (spec: string) => registry.platforms.find((p) => p.spec === spec)!.code;
    expect(lists.current).toEqual(['tax_collector', code('portal_b'), code('portal_c'), code('portal_a')]);
    expect(lists.earlier).toEqual([code('portal_a'), code('portal_f'), code('portal_b'), code('portal_d'), 'county-local']);
  });
});

describe('status counts', () => {
  it('gives seven buckets, zeros included, by count descending then status name', () => {
    expect(orderCounts({ sold: { doc_count: 5 }, redeemed: { doc_count: 5 }, available: { doc_count: 9 } })).toEqual([
      { status: 'available', count: 9 },
      { status: 'redeemed', count: 5 },
      { status: 'sold', count: 5 },
      { status: 'advertised', count: 0 },
      { status: 'cancelled', count: 0 },
      { status: 'lands_available', count: 0 },
      { status: 'tax_deed_applied', count: 0 },
    ]);
    expect(orderCounts(undefined)).toHaveLength(7);
  });
});
