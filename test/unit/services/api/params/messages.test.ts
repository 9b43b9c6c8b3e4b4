import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { controlCharacterProblem, integer, limit, money, offset, taxYear } from '../../../../../services/api/params/common.ts';
import { paramMessage } from '../../../../../services/api/params/messages.ts';
import { parseParams, parsePath } from '../../../../../services/api/params/parse.ts';

/**
 * Every kind of issue zod can raise, in the product's words: what a caller reads
 * on a 400 or a tool error where a schema gave no message of its own.
 */

/** The messages a schema answers for a value, as parseParams reads them. */
function messages(schema: z.ZodType, value: unknown): string[] {
  const parsed = parseParams(z.strictObject({ p: schema }), { p: schema }, { p: value });
  return parsed.error ? parsed.error.issues.map((i) => `${i.parameter}: ${i.message}`) : [];
}

/** The messages of the schema alone with the map, for kinds coercion turns into others first. */
function direct(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value, { error: paramMessage });
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
}

/** A raw issue as zod hands it to an error map (for the kinds our schemas reach only through nesting). */
const raw = (issue: Record<string, unknown>) => paramMessage({ input: 'x', path: [], ...issue } as never);

describe('paramMessage: every zod issue kind', () => {
  it('invalid_type: what the parameter takes, and "is required" for nothing at all', () => {
    expect(messages(z.number(), 'abc')).toEqual(['p: must be a number']);
    expect(messages(z.string(), 5)).toEqual(['p: must be text']);
    expect(messages(z.boolean(), 'maybe')).toEqual(['p: must be true or false']);
    expect(direct(z.array(z.string()), { a: 1 })).toEqual(['must be one value or a list of values']);
    // Through the coercion an object where text goes is one value that is not text.
    expect(messages(z.array(z.string()), { a: 1 })).toEqual(['p: must be text']);
    expect(messages(z.object({}), 'x')).toEqual(['p: must be an object of named values']);
    expect(messages(z.number().int(), 1.5)).toEqual(['p: must be an integer']);
    const required = parseParams(z.strictObject({ county: z.string() }), { county: z.string() }, {});
    expect(required.error?.issues).toEqual([{ parameter: 'county', message: 'is required' }]);
  });

  it('invalid_value: the values it takes, plainly listed', () => {
    expect(messages(z.enum(['redeemed', 'sold']), 'owned')).toEqual(['p: must be one of redeemed, sold']);
    expect(messages(z.literal('json'), 'xml')).toEqual(['p: must be json']);
  });

  it('too_small and too_big: characters for text, values for lists, bounds for numbers', () => {
    expect(messages(z.string().min(1), '')).toEqual(['p: must not be empty']);
    expect(messages(z.string().min(3), 'ab')).toEqual(['p: must be at least 3 characters long']);
    expect(messages(z.string().max(5), 'abcdef')).toEqual(['p: must be at most 5 characters long']);
    expect(messages(z.string().length(3), 'ab')).toEqual(['p: must be exactly 3 characters long']);
    expect(messages(z.array(z.string()).min(1), [])).toEqual(['p: must have at least 1 value']);
    expect(messages(z.array(z.string()).max(2), ['a', 'b', 'c'])).toEqual(['p: takes at most 2 values']);
    expect(messages(z.number().min(0), -1)).toEqual(['p: must be at least 0']);
    expect(messages(z.number().max(10), 11)).toEqual(['p: must be at most 10']);
    expect(messages(z.number().gt(0), 0)).toEqual(['p: must be greater than 0']);
    expect(messages(z.number().lt(0), 0)).toEqual(['p: must be less than 0']);
  });

  it('invalid_format: the format by its everyday name; a bare pattern is not shown', () => {
    expect(messages(z.iso.date(), '2024-02-30')).toEqual(['p: must be a real calendar date written YYYY-MM-DD']);
    expect(messages(z.iso.datetime(), 'noon')).toEqual(['p: must be a date and time such as 2024-06-01T12:00:00Z']);
    expect(messages(z.email(), 'nobody')).toEqual(['p: must be an email address such as name@example.com']);
    expect(messages(z.string().regex(/^[a-z]+$/), 'A1')).toEqual(['p: is not written in the form this parameter takes']);
    expect(messages(z.string().startsWith('evt_'), 'x')).toEqual(['p: must start with "evt_"']);
    expect(messages(z.string().endsWith('.csv'), 'x')).toEqual(['p: must end with ".csv"']);
    expect(messages(z.string().includes('@'), 'x')).toEqual(['p: must include "@"']);
    expect(messages(z.uuid(), 'x')).toEqual(['p: must be a UUID']);
    expect(raw({ code: 'invalid_format', format: 'cidrv4' })).toBe('must be a valid cidrv4');
  });

  it('not_multiple_of, invalid_union, invalid_key, invalid_element, custom and unrecognized_keys', () => {
    expect(messages(z.number().multipleOf(5), 7)).toEqual(['p: must be a multiple of 5']);
    expect(messages(z.union([z.string(), z.number()]), true)).toEqual(['p: matches none of the forms this parameter takes']);
    expect(direct(z.record(z.string().regex(/^a/), z.string()), { b: 'x' })).toEqual(['has a key this parameter does not take']);
    expect(raw({ code: 'invalid_element', origin: 'map', key: 'k', issues: [] })).toBe('has a value this parameter does not take');
    expect(
      messages(
        z.string().refine(() => false),
        'x',
      ),
    ).toEqual(['p: is not a value this parameter takes']);
    expect(raw({ code: 'unrecognized_keys', keys: ['bogus'] })).toBe('unknown parameter');
  });

  it("never in zod's own words, whatever the kind", () => {
    const zodWords = /^(Invalid|Too (big|small)|Unrecognized)|expected .+, received /;
    const codes = [
      'invalid_type',
      'invalid_value',
      'too_small',
      'too_big',
      'invalid_format',
      'not_multiple_of',
      'unrecognized_keys',
      'invalid_union',
      'invalid_key',
      'invalid_element',
      'custom',
    ];
    const fields: Record<string, Record<string, unknown>> = {
      invalid_type: { expected: 'number' },
      invalid_value: { values: ['a', 'b'] },
      too_small: { origin: 'number', minimum: 1, inclusive: true },
      too_big: { origin: 'array', maximum: 3, inclusive: true },
      invalid_format: { format: 'regex', pattern: '^a$' },
      not_multiple_of: { divisor: 2 },
      unrecognized_keys: { keys: ['x'] },
      invalid_union: { errors: [] },
      invalid_key: { origin: 'record', issues: [] },
      invalid_element: { origin: 'map', key: 'k', issues: [] },
      custom: {},
    };
    for (const code of codes) expect(raw({ code, ...fields[code] }), code).not.toMatch(zodWords);
  });

  it("a schema's own message wins over the map", () => {
    expect(messages(z.string().min(3, 'needs three'), 'ab')).toEqual(['p: needs three']);
  });
});

describe('ranges said whole: one message for every way a number misses', () => {
  it('limit, offset, tax years, amounts and integer()', () => {
    for (const value of ['abc', 0, 501, 2.5])
      expect(messages(limit(25), value), String(value)).toEqual(['p: must be an integer from 1 to 500']);
    for (const value of ['x', -1, 1.5]) expect(messages(offset, value)).toEqual(['p: must be an integer, 0 or more']);
    for (const value of ['twenty', 1800, 2101, 2023.5])
      expect(messages(taxYear, value)).toEqual(['p: must be a whole year from 1990 to 2100']);
    for (const value of ['ten', -1, 2e9])
      expect(messages(money, value)).toEqual(['p: must be an amount in dollars from 0 to 1,000,000,000, such as 1500 or 1500.25']);
    expect(messages(integer(2, 4), 5)).toEqual(['p: must be an integer from 2 to 4']);
    expect(messages(limit(25), 500)).toEqual([]);
  });
});

describe('every problem of every parameter at once', () => {
  const shape = { limit: limit(25), status: z.enum(['sold', 'redeemed']).optional(), county: z.string().optional() };
  const schema = z.strictObject(shape);

  it('an unknown name does not hide the bad values beside it', () => {
    const parsed = parseParams(schema, shape, { limit: '900', bogus: '1', status: 'owned' });
    expect(parsed.error?.issues).toEqual([
      { parameter: 'bogus', message: 'unknown parameter; accepted: limit, status, county' },
      { parameter: 'limit', message: 'must be an integer from 1 to 500' },
      { parameter: 'status', message: 'must be one of sold, redeemed' },
    ]);
  });

  it('a value refused before the schema read it is named once, not again as missing', () => {
    const required = { county: z.string('is required: the county'), limit: limit(25) };
    const parsed = parseParams(z.strictObject(required), required, { county: 'a\u0000', limit: 'x' });
    expect(parsed.error?.issues).toEqual([
      { parameter: 'county', message: 'must not contain control characters (U+0000 at character 2)' },
      { parameter: 'limit', message: 'must be an integer from 1 to 500' },
    ]);
  });

  it('good values parse', () => {
    expect(parseParams(schema, shape, { limit: '5', status: 'sold' })).toEqual({ value: { limit: 5, status: 'sold' } });
  });
});

describe('controlCharacterProblem: C0, DEL and C1, by code point and position', () => {
  it('finds the first one', () => {
    expect(controlCharacterProblem('lien\u0000port')).toBe('must not contain control characters (U+0000 at character 5)');
    expect(controlCharacterProblem('\u001f')).toBe('must not contain control characters (U+001F at character 1)');
    expect(controlCharacterProblem('a\u007f')).toBe('must not contain control characters (U+007F at character 2)');
    expect(controlCharacterProblem('a\u0085\u0000')).toBe('must not contain control characters (U+0085 at character 2)');
    expect(controlCharacterProblem('\u009f')).toBe('must not contain control characters (U+009F at character 1)');
    expect(controlCharacterProblem('tab\there')).toBe('must not contain control characters (U+0009 at character 4)');
  });

  it('lets every printable character through: space, no-break space, accents, dashes, emoji', () => {
    for (const text of ['', 'miami-dade', 'Peña José', 'a\u00a0b', 'x \u2014 y', '\u{1f3e0}', '~'])
      expect(controlCharacterProblem(text), JSON.stringify(text)).toBeUndefined();
  });

  it('guards path parameters too', () => {
    const path = z.strictObject({ id: z.string() });
    expect(parsePath(path, { id: 'cert_\u0000' }).error?.issues).toEqual([
      { parameter: 'id', message: 'must not contain control characters (U+0000 at character 6)' },
    ]);
    expect(parsePath(path, { id: 'cert_1' })).toEqual({ value: { id: 'cert_1' } });
  });
});
