import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calendarDate, countySlug, limit, multi, offset, taxYear } from '../../../../../services/api/params/common.ts';
import { coerceArguments } from '../../../../../services/api/params/coerce.ts';
import { IssueList, MAX_ISSUES, zodIssues } from '../../../../../services/api/params/issues.ts';
import { acceptedJsonSchema } from '../../../../../services/api/params/json-schema.ts';
import { kindOf } from '../../../../../services/api/params/kinds.ts';

/**
 * The one reading of what a caller sends, for a REST query string (strings, a
 * repeated name an array) and an MCP tool's arguments (JSON values) alike.
 */
const shape = {
  query: z.string().optional(),
  county: multi(countySlug).optional(),
  one_county: countySlug.optional(),
  tax_year: multi(taxYear).optional(),
  year: taxYear.optional(),
  day: calendarDate.optional(),
  sort: z.enum(['a', 'b']).optional(),
  redeemed: z.boolean().optional(),
  limit: limit(25),
  offset,
};
const required = z.string('is required').pipe(countySlug);

const coerce = (given: Record<string, unknown>) => {
  const { value, issues } = coerceArguments(shape, given);
  return { value, issues: issues.issues, omitted: issues.omitted };
};

describe('kindOf', () => {
  it('looks through optional, default and pipes to the value, its list-ness, and its noun', () => {
    expect(kindOf(shape.query)).toEqual({ scalar: 'string', list: false, word: false, noun: 'value' });
    expect(kindOf(shape.county)).toEqual({ scalar: 'string', list: true, word: true, noun: 'county slug' });
    expect(kindOf(shape.one_county)).toEqual({ scalar: 'string', list: false, word: true, noun: 'county slug' });
    expect(kindOf(required)).toEqual({ scalar: 'string', list: false, word: true, noun: 'county slug' });
    expect(kindOf(shape.tax_year)).toEqual({ scalar: 'number', list: true, word: true, noun: 'tax year' });
    expect(kindOf(shape.day)).toMatchObject({ scalar: 'string', word: true, noun: 'date' });
    expect(kindOf(shape.sort)).toMatchObject({ scalar: 'string', word: true });
    expect(kindOf(shape.redeemed)).toMatchObject({ scalar: 'boolean', word: true });
    expect(kindOf(shape.limit)).toMatchObject({ scalar: 'number', list: false });
  });
});

describe('coerceArguments: what REST and MCP both accept', () => {
  it('a multi-value filter takes one value, comma-separated text, repeats or an array, items as text or native', () => {
    expect(coerce({ county: 'broward' }).value).toEqual({ county: ['broward'] });
    expect(coerce({ county: ['broward,miami-dade', 'duval'] }).value).toEqual({ county: ['broward', 'miami-dade', 'duval'] });
    expect(coerce({ tax_year: '2023, 2024' }).value).toEqual({ tax_year: [2023, 2024] });
    expect(coerce({ tax_year: [2023, '2024'] }).value).toEqual({ tax_year: [2023, 2024] });
  });

  it('numbers and booleans come native or as their text; other text is left for the schema to refuse by name', () => {
    expect(coerce({ limit: '10', redeemed: 'false' }).value).toEqual({ limit: 10, redeemed: false });
    expect(coerce({ limit: 10, redeemed: true }).value).toEqual({ limit: 10, redeemed: true });
    expect(coerce({ limit: '1e3', redeemed: 'yes' }).value).toEqual({ limit: '1e3', redeemed: 'yes' });
  });

  it('a single-valued parameter takes one value or an array of exactly one; free text keeps its commas', () => {
    expect(coerce({ one_county: ['broward'], limit: ['5'], query: ['smith, john'] }).value).toEqual({
      one_county: 'broward',
      limit: 5,
      query: 'smith, john',
    });
  });

  it('several values of a single-valued parameter say that it takes one, naming what', () => {
    expect(coerce({ one_county: 'miami-dade,broward', year: ['2023', '2024'], limit: ['5', '6'], sort: 'a,b' }).issues).toEqual([
      { parameter: 'one_county', message: 'takes one county slug, not several (given 2: miami-dade, broward)' },
      { parameter: 'year', message: 'takes one tax year, not several (given 2: 2023, 2024)' },
      { parameter: 'limit', message: 'takes one value, not several (given 2: 5, 6)' },
      { parameter: 'sort', message: 'takes one value, not several (given 2: a, b)' },
    ]);
    expect(coerce({ one_county: [], day: '2024-01-01,2024-02-01,2024-03-01,2024-04-01' }).issues).toEqual([
      { parameter: 'one_county', message: 'takes one county slug, given none' },
      { parameter: 'day', message: 'takes one date, not several (given 4: 2024-01-01, 2024-02-01, 2024-03-01, …)' },
    ]);
    expect(coerce({ query: ['a', { b: 1 }] }).issues).toEqual([
      { parameter: 'query', message: 'takes one value, not several (given 2: a, an object)' },
    ]);
  });

  it('reports an empty list item and an unknown name, with the accepted name it is a typo of', () => {
    expect(coerce({ county: 'broward,', limmit: '3' }).issues).toEqual([
      { parameter: 'county', message: 'has an empty value (check for a stray comma)' },
      { parameter: 'limmit', message: expect.stringContaining('did you mean limit?') },
    ]);
  });

  it('never reads an inherited name as a parameter', () => {
    const given = JSON.parse('{"__proto__": 1, "constructor": 2}') as Record<string, unknown>;
    expect(coerce(given).issues.map((i) => i.parameter)).toEqual(['__proto__', 'constructor']);
  });
});

describe('bounded problems: thousands of bad arguments cost one short answer', () => {
  it('names the first few problems and counts the rest', () => {
    const given = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`x${i}`, 1]));
    const { issues, omitted } = coerce(given);
    expect(issues).toHaveLength(MAX_ISSUES);
    expect(omitted).toBe(5000 - MAX_ISSUES);
    const error = coerceArguments(shape, given).issues.error();
    expect(error.message).toMatch(/^x0: unknown parameter; .* \(and 4999 more problems\)$/);
    expect(error.details).toEqual({ issues, more_issues: 5000 - MAX_ISSUES });
  });

  it('echoes a long name cut to 64 characters, and looks for no typo in a name no accepted name could be', () => {
    const long = `limit${'x'.repeat(100_000)}`;
    const [issue] = coerce({ [long]: 1 }).issues;
    expect(issue!.parameter).toBe(`${long.slice(0, 64)}…`);
    expect(issue!.message).not.toMatch(/did you mean/);
    expect(coerce({ limitt: 1 }).issues[0]!.message).toMatch(/did you mean limit\?/);
    expect(coerce({ one_county: `a,${'b'.repeat(1000)}` }).issues[0]!.message).toBe(
      `takes one county slug, not several (given 2: a, ${'b'.repeat(64)}…)`,
    );
  });

  it('names one bad value of a long list once', () => {
    const parsed = z.strictObject(shape).safeParse({ county: Array.from({ length: 60 }, () => 'Not A Slug!'), tax_year: [1, 2, 3] });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(zodIssues(parsed.error).details).toEqual({
        issues: [
          { parameter: 'county', message: 'must be a county slug such as miami-dade' },
          { parameter: 'tax_year', message: 'must be a whole year from 1990 to 2100' },
        ],
      });
  });

  it('zodIssues names each unknown key of native input instead of the whole object', () => {
    const parsed = z.strictObject(shape).safeParse({ limit: 5, countyy: ['x'], sortt: 'a' });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(zodIssues(parsed.error).issues).toEqual([
        { parameter: 'countyy', message: 'unknown parameter' },
        { parameter: 'sortt', message: 'unknown parameter' },
      ]);
  });

  it('an issue list writes no message past its bound', () => {
    const list = new IssueList();
    let written = 0;
    for (let i = 0; i < 100; i++) list.add(`p${i}`, () => `message ${++written}`, undefined);
    expect(written).toBe(MAX_ISSUES);
    expect(list.omitted).toBe(100 - MAX_ISSUES);
  });
});

describe('acceptedJsonSchema: the published input says what coerceArguments accepts', () => {
  const json = z.toJSONSchema(z.strictObject(shape), { io: 'input', target: 'draft-7' }) as Record<string, unknown>;
  const properties = acceptedJsonSchema(shape, json).properties as Record<string, Record<string, unknown>>;

  it('a multi-value filter: an array, one value, or comma-separated text', () => {
    const county = properties.county!;
    expect(county.anyOf).toEqual([
      { type: 'array', minItems: 1, maxItems: 67, items: expect.objectContaining({ type: 'string', pattern: '^[a-z][a-z. -]*$' }) },
      expect.objectContaining({ type: 'string', pattern: '^[a-z][a-z. -]*$' }),
      { type: 'string', description: expect.stringMatching(/separated by commas/) },
    ]);
  });

  it('a number or boolean also as text; a single value also as an array of one; default and description stay outside', () => {
    expect(properties.limit).toMatchObject({ default: 25, description: expect.stringMatching(/Page size/) });
    expect(properties.limit!.anyOf).toEqual([
      { type: 'integer', minimum: 1, maximum: 500 },
      { type: 'string', pattern: '^-?(?:0|[1-9]\\d*)(?:\\.\\d+)?$', description: 'The number as text, e.g. "25".' },
      { type: 'array', minItems: 1, maxItems: 1, items: { anyOf: expect.any(Array) } },
    ]);
    expect((properties.redeemed!.anyOf as unknown[])[1]).toEqual({ type: 'string', enum: ['true', 'false'] });
    expect(properties.one_county!.anyOf).toEqual([
      expect.objectContaining({ type: 'string' }),
      { type: 'array', items: expect.objectContaining({ type: 'string' }), minItems: 1, maxItems: 1 },
    ]);
  });
});
