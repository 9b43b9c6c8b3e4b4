import { describe, expect, it } from 'vitest';
import { SalesSearchParams } from '../../../../../services/api/routes/certificate-sales/params.ts';
import { HoldersSearchParams } from '../../../../../services/api/routes/holders/params.ts';
import { LandsSearchParams } from '../../../../../services/api/routes/lands-available/params.ts';
import { SourcesCountyParams, SourcesParams } from '../../../../../services/api/routes/sources/params.ts';

/**
 * The parameter schemas take native values: REST coerces its query string into
 * them, an MCP tool will pass them as they are. These are the rules a tool call
 * meets without the query-string layer.
 */
const problems = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; keys?: string[] }[] } }) =>
  result.success ? [] : result.error!.issues.flatMap((i) => i.keys ?? [String(i.path[0])]);

describe('list parameter schemas (native values, as MCP will pass them)', () => {
  it('fill the defaults of spec 4 and 8.1: limit 25 (100 on /sources), offset 0', () => {
    expect(SalesSearchParams.parse({})).toEqual({ limit: 25, offset: 0 });
    expect(HoldersSearchParams.parse({})).toEqual({ limit: 25, offset: 0 });
    expect(LandsSearchParams.parse({})).toEqual({ limit: 25, offset: 0 });
    expect(SourcesParams.parse({})).toEqual({ limit: 100, offset: 0 });
    expect(SourcesCountyParams.parse({})).toEqual({ limit: 100, offset: 0 });
  });

  it('refuse unknown keys: a typo never widens a search', () => {
    expect(problems(SalesSearchParams.safeParse({ countys: ['alachua'] }))).toEqual(['countys']);
    expect(problems(HoldersSearchParams.safeParse({ holder: 'x' }))).toEqual(['holder']);
    expect(problems(LandsSearchParams.safeParse({ status: 'lands_available' }))).toEqual(['status']);
  });

  it('a minimum above its maximum is refused on the minimum; equal ends are fine (inclusive)', () => {
    expect(problems(SalesSearchParams.safeParse({ sale_after: '2024-06-02', sale_before: '2024-06-01' }))).toEqual(['sale_after']);
    expect(SalesSearchParams.safeParse({ sale_after: '2024-06-01', sale_before: '2024-06-01' }).success).toBe(true);
    expect(problems(LandsSearchParams.safeParse({ min_opening_bid: 10, max_opening_bid: 9.99 }))).toEqual(['min_opening_bid']);
    expect(LandsSearchParams.safeParse({ min_opening_bid: 10, max_opening_bid: 10 }).success).toBe(true);
  });

  it('dates are real calendar dates; counties are slugs, lower-cased; holder queries need a letter or digit', () => {
    expect(problems(SalesSearchParams.safeParse({ sale_before: '2023-02-29' }))).toEqual(['sale_before']);
    expect(SalesSearchParams.safeParse({ sale_before: '2024-02-29' }).success).toBe(true);
    expect(SalesSearchParams.parse({ county: [' Miami-Dade '] }).county).toEqual(['miami-dade']);
    expect(problems(HoldersSearchParams.safeParse({ query: '&&' })).length).toBe(0);
    expect(problems(HoldersSearchParams.safeParse({ query: '.,;-' }))).toEqual(['query']);
    expect(problems(HoldersSearchParams.safeParse({ min_certificates: -1 }))).toEqual(['min_certificates']);
  });

  it('limit is 1 to 500 everywhere, /sources included', () => {
    for (const schema of [SalesSearchParams, HoldersSearchParams, LandsSearchParams, SourcesParams, SourcesCountyParams]) {
      expect(problems(schema.safeParse({ limit: 0 }))).toEqual(['limit']);
      expect(problems(schema.safeParse({ limit: 501 }))).toEqual(['limit']);
      expect(schema.safeParse({ limit: 500 }).success).toBe(true);
    }
  });
});
