import { describe, expect, it } from 'vitest';
import { readSavedParams } from '../../../../services/api/routes/saved-searches/read.ts';
import { alertRow } from '../../../../services/web/saved-search-alerts.ts';
import { queryStringOf, readSearchText, summarizeParams } from '../../../../services/web/saved-search-text.ts';
import { registry } from '../../../helpers/registry.ts';

/** What the account page makes of a saved search's params and events: pure, no service. */
describe('a saved search as text', () => {
  it('reads a query string as the API reads one: lists from repeats and commas, + as a space, a pasted address from its ?', () => {
    expect(readSearchText('county=lee,collier&county=broward&query=smith+jones&face_min=2000')).toEqual({
      params: { county: ['lee,collier', 'broward'], query: 'smith jones', face_min: '2000' },
      problems: [],
    });
    for (const pasted of [
      '?county=lee',
      '  https://api.example.com/api/v1/certificates/search?county=lee#facets ',
      '/api/v1/certificates/search?county=lee',
    ])
      expect(readSearchText(pasted).params, pasted).toEqual({ county: 'lee' });
    expect(readSearchText('').params).toEqual({});
    expect(readSearchText('https://api.example.com/api/v1/certificates/search').params).toEqual({});
    // A '?' or '#' inside a typed value is the value's: only a pasted address has a query string and a fragment.
    expect(readSearchText('query=what?').params).toEqual({ query: 'what?' });
    expect(readSearchText('query=12 Main St #4').params).toEqual({ query: '12 Main St #4' });
    expect(readSearchText('county=%E0%A4%A&status=sold')).toEqual({
      params: { status: 'sold' },
      problems: [{ parameter: 'county', message: 'malformed percent-encoding in the query string' }],
    });
  });

  it('writes stored params back as a query string the same check reads into the same params', () => {
    const cases: Record<string, unknown>[] = [
      {},
      { county: ['lee', 'miami-dade'], status: ['sold'], face_min: 2000.5, redeemed: false },
      { query: 'Smith & Sons, 12 Main St #4 50%', holder: 'a+b', tax_year: [2023, 2024], sale_after: '2024-05-01' },
      { vendor: ['tax_collector', 'lienport'], deed_eligible_by: '2026-04-01', expires_before: '2030-01-01' },
    ];
    for (const params of cases) {
      const text = queryStringOf(params);
      const read = readSearchText(text);
      expect(read.problems, text).toEqual([]);
      expect(readSavedParams(registry, read.params), text).toEqual(params);
    }
    expect(queryStringOf({ county: ['lee', 'collier'], face_min: 2000 })).toBe('county=lee,collier&face_min=2000');
  });

  it('summarizes each filter in a line, counties by name, and a filter it does not know by its name', () => {
    expect(
      summarizeParams(
        {
          query: 'smith',
          county: ['miami-dade', 'st-johns'],
          status: ['sold', 'tax_deed_applied'],
          tax_year: [2023],
          holder: 'Acme',
          vendor: ['lienport'],
          face_min: 1500.25,
          face_max: 20000,
          sale_after: '2024-05-01',
          redeemed: true,
          deed_eligible_by: '2026-04-01',
          expires_before: '2031-06-01',
          future_filter: ['x', 'y'],
        },
        registry,
      ),
    ).toEqual([
      'Text “smith”',
      'Counties: Miami-Dade, St. Johns',
      'Status: sold or tax deed applied',
      'Tax year: 2023',
      'Holder name contains “Acme”',
      'Vendor: lienport',
      'Face amount from 1,500.25 USD to 20,000 USD',
      'Sold on or after 1 May 2024',
      'Redeemed only',
      'Tax deed application allowed by 1 April 2026',
      'Expiring before 1 June 2031',
      'future_filter: x, y',
    ]);
    expect(summarizeParams({ face_max: 100, sale_before: '2020-12-31', redeemed: false }, registry)).toEqual([
      'Face amount at most 100 USD',
      'Sold on or before 31 December 2020',
      'Not redeemed',
    ]);
    expect(summarizeParams({}, registry)).toEqual(['Every certificate (no filters)']);
  });
});

describe("a saved search's alert", () => {
  const at = '2026-05-05T14:03:09.000Z';
  it('names the certificate of a match, and the count and tax year of a first load', () => {
    expect(
      alertRow(
        {
          seq: 41,
          type: 'saved_search.match_removed',
          createdAt: at,
          countySlug: 'lee',
          data: { object: { id: 'cert_1', certificate_number: '2024-0001', county_name: 'Lee' }, previous: { status: 'sold' } },
        },
        registry,
      ),
    ).toEqual({
      event: 'evt_41',
      type: 'saved_search.match_removed',
      what: 'No longer matches',
      at: '5 May 2026, 14:03 UTC',
      certificate: { number: '2024-0001', id: 'cert_1' },
      load: null,
      county: 'Lee',
    });
    expect(
      alertRow(
        {
          seq: 42,
          type: 'saved_search.matches_loaded',
          createdAt: at,
          countySlug: 'miami-dade',
          data: { object: { county_slug: 'miami-dade', tax_year: 2025, count: 1 }, previous: {} },
        },
        registry,
      ),
    ).toMatchObject({ what: 'Matches in a first load', certificate: null, load: '1 certificate of tax year 2025', county: 'Miami-Dade' });
  });

  it('shows what an older or partial row lacks as a dash, never failing', () => {
    expect(
      alertRow(
        { seq: 43, type: 'saved_search.match_added', createdAt: at, countySlug: null, data: { object: {}, previous: {} } },
        registry,
      ),
    ).toMatchObject({ what: 'Now matches', certificate: { number: null, id: null }, county: '–' });
  });
});
