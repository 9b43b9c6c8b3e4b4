import { describe, expect, it } from 'vitest';
import { type HolderBucket, mapHolder } from '../../../../indexer/holders/map-holder.ts';
import { HolderRecord } from '../../../../services/domain/records.ts';

const AT = '2025-01-02T03:04:05.000Z';

function bucket(overrides: Partial<HolderBucket> = {}): HolderBucket {
  return {
    key: { holder_id: 'hld_c4ac2deca041a2813bf3' },
    doc_count: 5,
    name: { buckets: [{ key: 'Gulf Coast Lien Fund II, LLC', doc_count: 3 }] },
    // 0.1 + 0.2 style drift, as a sum of doubles comes back.
    held: { doc_count: 3, face: { value: 1234.5600000000002 } },
    counties: {
      buckets: [
        { key: 'miami-dade', doc_count: 4 },
        { key: 'alachua', doc_count: 1 },
      ],
    },
    first_year: { value: 2019 },
    last_year: { value: 2024 },
    ...overrides,
  };
}

describe('mapHolder', () => {
  it('maps a bucket to a holder document', () => {
    const holder = mapHolder(bucket(), AT);
    expect(holder).toEqual({
      id: 'hld_c4ac2deca041a2813bf3',
      name: 'Gulf Coast Lien Fund II, LLC',
      normalized_name: 'gulf coast lien fund ii llc',
      certificate_count: 3,
      outstanding_face_amount: 1234.56,
      counties: ['alachua', 'miami-dade'],
      first_seen_tax_year: 2019,
      last_seen_tax_year: 2024,
      updated_at: AT,
    });
    expect(HolderRecord.safeParse(holder).success).toBe(true);
  });

  it('a holder whose certificates were all redeemed holds nothing', () => {
    expect(mapHolder(bucket({ held: { doc_count: 0, face: { value: 0 } } }), AT)).toMatchObject({
      certificate_count: 0,
      outstanding_face_amount: 0,
    });
    expect(mapHolder(bucket({ held: { doc_count: 0, face: { value: null } } }), AT).outstanding_face_amount).toBe(0);
  });

  it('rounds the face sum half-up to cents', () => {
    expect(mapHolder(bucket({ held: { doc_count: 2, face: { value: 100.005 } } }), AT).outstanding_face_amount).toBe(100.01);
  });

  it('a bucket without a name or years does not pass HolderRecord', () => {
    const holder = mapHolder(bucket({ name: { buckets: [] }, first_year: { value: null }, last_year: { value: null } }), AT);
    expect(holder).toMatchObject({ name: '', normalized_name: '', first_seen_tax_year: 0, last_seen_tax_year: 0 });
    expect(HolderRecord.safeParse(holder).success).toBe(false);
  });
});
