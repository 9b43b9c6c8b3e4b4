import { describe, expect, it } from 'vitest';
import type { ExploreParams } from '../../../../services/web/explore-read.ts';
import { exploreModel, exploreQuery, filtersOf } from '../../../../services/web/explore-view.ts';

const registry = { county: (slug: string) => (slug === 'lee' ? ({ name: 'Lee' } as never) : undefined) };

const params = (p: Partial<ExploreParams>): ExploreParams => ({ limit: 25, offset: 0, ...p }) as ExploreParams;

function model(p: Partial<ExploreParams>, total = 120, facets = {}) {
  return exploreModel({
    params: params(p),
    result: { rows: [], limit: p.limit ?? 25, offset: p.offset ?? 0, total, facets },
    ranges: { face: { min: 10, max: 900 }, rate: null, sale: null },
    charts: null,
    charged: 1,
    registry,
    csvAllowed: true,
  });
}

describe("the explorer's links", () => {
  it('writes the API query string, lists comma-joined, default page and size left out', () => {
    expect(exploreQuery(params({ county: ['lee', 'miami-dade'], face_min: 150, facets: ['county'] }))).toBe(
      'county=lee,miami-dade&face_min=150',
    );
    expect(exploreQuery(params({ query: 'a,b & c', offset: 50, limit: 10 }))).toBe('limit=10&offset=50&query=a%2Cb%20%26%20c');
    expect(filtersOf(params({ county: ['lee'], sort: 'face_desc', offset: 25 }))).toEqual({ county: ['lee'] });
  });

  it('a chip per filter value, each linking to the search without it and back on the first page', () => {
    const m = model({ county: ['lee', 'miami-dade'], face_min: 150, offset: 50 });
    expect(m.chips.map((c) => [c.label, c.href])).toEqual([
      ['County: Lee', '/account/explore?county=miami-dade&face_min=150'],
      ['County: miami-dade', '/account/explore?county=lee&face_min=150'],
      ['Face at least 150.00 USD', '/account/explore?county=lee,miami-dade'],
    ]);
  });

  it('a facet value adds itself, a chosen one removes itself', () => {
    const m = model({ tax_year: [2022] }, 10, {
      tax_year: [
        { value: 2022, count: 4 },
        { value: 2023, count: 6 },
      ],
      redeemed: [{ value: false, count: 10 }],
    });
    const years = m.facets.find((f) => f.name === 'tax_year')!.values;
    expect(years.map((v) => [v.label, v.n, v.selected, v.href])).toEqual([
      ['2022', 4, true, '/account/explore'],
      ['2023', 6, false, '/account/explore?tax_year=2022,2023'],
    ]);
    expect(m.facets.find((f) => f.name === 'redeemed')!.values[0]!.href).toBe('/account/explore?tax_year=2022&redeemed=false');
  });

  it('pages: first, nearby and last, the last at the offset of the final rows', () => {
    const m = model({ offset: 50 }, 120);
    expect(m.pages.current).toBe(3);
    expect(m.pages.last).toBe(5);
    expect(m.pages.links.map((l) => l.number)).toEqual([1, 2, 3, 4, 5]);
    expect(m.pages.links.at(-1)!.href).toBe('/account/explore?offset=100');
    expect(m.pages.previous).toBe('/account/explore?offset=25');
    expect(m.pages.next).toBe('/account/explore?offset=75');
    expect(model({}, 0).pages).toMatchObject({ current: 1, last: 1, previous: null, next: null });
  });

  it('the CSV and bulk links carry the scope', () => {
    const m = model({ county: ['lee'], status: ['sold'] });
    expect(m.csv.href).toBe('/api/v1/certificates/search?county=lee&status=sold&format=csv');
    expect(m.bulk).toEqual([{ label: 'Lee', href: '/api/v1/bulk/files?dataset=certificates&county=lee' }]);
    expect(m.cost.text).toBe('This view cost 1 credit');
  });
});
