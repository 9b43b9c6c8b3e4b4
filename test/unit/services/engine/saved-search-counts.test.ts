import { describe, expect, it } from 'vitest';
import { groupByText } from '../../../../services/engine/saved-search-counts.ts';

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
