import { describe, expect, it } from 'vitest';
import { groupAsks, groupByText } from '../../../../services/engine/saved-search-counts.ts';

/** Saved searches grouped by their text clause, so the engine builds each text once per first load. */
describe('groupByText', () => {
  const smith = { match: { owner_name: { query: 'smith' } } };
  const oak = { match: { owner_name: { query: 'oak' } } };
  const sold = { terms: { status: ['sold'] } };
  const broward = { terms: { county_slug: ['broward'] } };

  it('puts the searches of one text together, each with only its filters', () => {
    const groups = groupByText([
      { id: 'a', query: { bool: { must: [smith], filter: [sold] } } },
      { id: 'b', query: { bool: { must: [oak] } } },
      { id: 'c', query: { bool: { must: [smith], filter: [broward, sold] } } },
    ]);
    expect(groups).toEqual([
      {
        text: smith,
        searches: [
          { id: 'a', rest: { bool: { filter: [sold] } } },
          { id: 'c', rest: { bool: { filter: [broward, sold] } } },
        ],
      },
      { text: oak, searches: [{ id: 'b', rest: { match_all: {} } }] },
    ]);
  });

  it('counts a query of any other shape whole, in a group without text', () => {
    const other = [
      { id: 'd', query: { bool: { filter: [sold] } } },
      { id: 'e', query: { bool: { must: [smith, oak] } } },
      { id: 'f', query: { bool: { must: [smith], must_not: [sold] } } },
      { id: 'g', query: { match_all: {} } },
    ];
    expect(groupByText(other)).toEqual([{ searches: other.map((s) => ({ id: s.id, rest: s.query })) }]);
  });
});

/** Several first loads counted together: a text asked by many loads is one group, each entry held to its own load. */
describe('groupAsks', () => {
  const smith = { match: { owner_name: { query: 'smith' } } };
  const sold = { terms: { status: ['sold'] } };
  const scope = (county: string, year: number) => [{ term: { county_slug: county } }, { term: { tax_year: year } }];

  it('shares a text between loads and keys each entry by its load and search', () => {
    const groups = groupAsks([
      { searches: [{ id: 'a', query: { bool: { must: [smith], filter: [sold] } } }], countySlug: 'lee', taxYear: 2024 },
      {
        searches: [
          { id: 'a', query: { bool: { must: [smith], filter: [sold] } } },
          { id: 'd', query: { bool: { filter: [sold] } } },
        ],
        countySlug: 'duval',
        taxYear: 2023,
      },
    ]);
    expect(groups).toEqual([
      {
        text: smith,
        entries: [
          { key: '0:a', rest: { bool: { filter: [...scope('lee', 2024), { bool: { filter: [sold] } }] } } },
          { key: '1:a', rest: { bool: { filter: [...scope('duval', 2023), { bool: { filter: [sold] } }] } } },
        ],
      },
      { entries: [{ key: '1:d', rest: { bool: { filter: [...scope('duval', 2023), { bool: { filter: [sold] } }] } } }] },
    ]);
  });
});
