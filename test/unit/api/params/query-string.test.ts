import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { limit, multi, offset } from '../../../../services/api/params/common.ts';
import { coerceQuery, kindOf, parseQueryString, zodIssues } from '../../../../services/api/params/query-string.ts';

const shape = {
  query: z.string().optional(),
  county: multi(z.string()).optional(),
  tax_year: multi(z.number().int()).optional(),
  redeemed: z.boolean().optional(),
  limit: limit(25),
  offset,
};

describe('kindOf', () => {
  it('looks through optional and default to the value kind', () => {
    expect(kindOf(shape.query)).toBe('string');
    expect(kindOf(shape.county)).toEqual({ array: 'string' });
    expect(kindOf(shape.tax_year)).toEqual({ array: 'number' });
    expect(kindOf(shape.redeemed)).toBe('boolean');
    expect(kindOf(shape.limit)).toBe('number');
  });
});

describe('coerceQuery', () => {
  it('splits multi-values on commas and across repeats, and types numbers and booleans', () => {
    const { value, issues } = coerceQuery(shape, {
      county: ['broward,miami-dade', 'duval'],
      tax_year: '2023,2024',
      redeemed: 'false',
      limit: '10',
    });
    expect(issues).toEqual([]);
    expect(value).toEqual({ county: ['broward', 'miami-dade', 'duval'], tax_year: [2023, 2024], redeemed: false, limit: 10 });
  });

  it('leaves a value that is not a number or boolean as text for the schema to refuse by name', () => {
    expect(coerceQuery(shape, { limit: '1e3', redeemed: 'yes' }).value).toEqual({ limit: '1e3', redeemed: 'yes' });
  });

  it('reports a single-valued parameter given twice, an empty list item and an unknown name', () => {
    const { issues } = coerceQuery(shape, { limit: ['5', '6'], county: 'broward,', limmit: '3' });
    expect(issues).toEqual([
      { parameter: 'limit', message: 'given more than once; this parameter takes one value' },
      { parameter: 'county', message: 'has an empty value (check for a stray comma)' },
      { parameter: 'limmit', message: expect.stringContaining('did you mean limit?') },
    ]);
  });
});

describe('parseQueryString', () => {
  it('decodes plus and percent-encoding and collects repeated names', () => {
    expect(parseQueryString('query=smith+%26+sons&county=a&county=b')).toEqual({ query: 'smith & sons', county: ['a', 'b'] });
  });

  it('reports broken percent-encoding by parameter name instead of guessing', () => {
    const parsed = parseQueryString('query=%E0%A4%A&limit=5');
    expect(parsed).toEqual({ limit: '5' });
    const { issues } = coerceQuery(shape, parsed);
    expect(issues).toEqual([{ parameter: 'query', message: 'malformed percent-encoding in the query string' }]);
  });
});

describe('zodIssues', () => {
  it('names each unknown key of native input (as MCP passes it) instead of the whole object', () => {
    const parsed = z.strictObject(shape).safeParse({ limit: 5, countyy: ['x'], sortt: 'a' });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(zodIssues(parsed.error)).toEqual([
        { parameter: 'countyy', message: 'unknown parameter' },
        { parameter: 'sortt', message: 'unknown parameter' },
      ]);
  });
});
