import { describe, expect, it } from 'vitest';
import { buildHoldersQuery } from '../../../../indexer/holders/build-holders-query.ts';

const aggs = {
  name: {
    terms: {
      script: { lang: 'painless', source: 'params._source.holder_name' },
      size: 1,
      order: [{ _count: 'desc' }, { _key: 'asc' }],
    },
  },
  held: {
    filter: { bool: { filter: [{ term: { redeemed: false } }], must_not: [{ term: { status: 'cancelled' } }] } },
    aggs: { face: { sum: { field: 'face_amount' } } },
  },
  counties: { terms: { field: 'county_slug', size: 67, order: { _key: 'asc' } } },
  first_year: { min: { field: 'tax_year' } },
  last_year: { max: { field: 'tax_year' } },
};

const query = {
  bool: {
    must_not: [
      { term: { struck_to_county: true } },
      { terms: { status: ['available', 'advertised'] } },
      { terms: { holder_id: ['hld_aaaaaaaaaaaaaaaaaaaa', 'hld_bbbbbbbbbbbbbbbbbbbb'] } },
    ],
  },
};

describe('buildHoldersQuery', () => {
  it('first page: composite over holder_id without after, county-held certificates excluded', () => {
    expect(
      buildHoldersQuery({
        countyHolderIds: ['hld_aaaaaaaaaaaaaaaaaaaa', 'hld_bbbbbbbbbbbbbbbbbbbb'],
        pageSize: 500,
        maxCounties: 67,
      }),
    ).toEqual({
      size: 0,
      track_total_hits: false,
      query,
      aggs: {
        holders: {
          composite: { size: 500, sources: [{ holder_id: { terms: { field: 'holder_id' } } }] },
          aggs,
        },
      },
    });
  });

  it('next page: carries the previous after_key', () => {
    expect(
      buildHoldersQuery({
        countyHolderIds: ['hld_aaaaaaaaaaaaaaaaaaaa', 'hld_bbbbbbbbbbbbbbbbbbbb'],
        after: { holder_id: 'hld_0123456789abcdef0123' },
        pageSize: 2,
        maxCounties: 67,
      }),
    ).toEqual({
      size: 0,
      track_total_hits: false,
      query,
      aggs: {
        holders: {
          composite: {
            size: 2,
            sources: [{ holder_id: { terms: { field: 'holder_id' } } }],
            after: { holder_id: 'hld_0123456789abcdef0123' },
          },
          aggs,
        },
      },
    });
  });

  it('a null after_key is the first page', () => {
    const body = buildHoldersQuery({ countyHolderIds: [], after: null, pageSize: 10, maxCounties: 67 });
    expect(body.aggs.holders.composite).toEqual({ size: 10, sources: [{ holder_id: { terms: { field: 'holder_id' } } }] });
  });
});
