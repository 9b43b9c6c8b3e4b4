import { z } from 'zod';

/**
 * Parameter pieces every endpoint shares (spec 4 and 8.1). Schemas take native
 * JSON values (numbers, booleans, arrays): a REST query string and an MCP tool's
 * arguments are both coerced into them first, by one function (coerce.ts).
 */

export const MAX_LIMIT = 500;

export function limit(defaultValue: number, max: number = MAX_LIMIT) {
  return integer(1, max).default(defaultValue).describe(`Page size, 1 to ${max} (default ${defaultValue}).`);
}

export const offset = integer(0)
  .default(0)
  .describe('Rows to skip, 0 or more (default 0). Any offset below pagination.total works, however deep.');

/**
 * A whole number in a range, with one message for every way a value can miss it (text,
 * a fraction, too small, too big), so "limit=abc" and "limit=900" both answer with the
 * range the caller has to hit: "must be an integer from 1 to 500".
 */
export function integer(min: number, max?: number) {
  const message = max === undefined ? `must be an integer, ${min} or more` : `must be an integer from ${min} to ${max}`;
  const schema = z.number({ error: message }).int(message).min(min, message);
  return max === undefined ? schema : schema.max(max, message);
}

/**
 * Control characters (C0, DEL and C1) are never part of a name, a slug, an id or a search:
 * they print as nothing, and PostgreSQL refuses a NUL in text outright (a 500 where SQLite
 * answered). The one coercion step (coerce.ts) and the path validator (validation.ts) run
 * this over every string a caller sends, whatever the parameter's schema, so a new
 * parameter has the rule without asking for it.
 */
export function controlCharacterProblem(text: string): string | undefined {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f))
      return `must not contain control characters (U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${i + 1})`;
  }
  return undefined;
}

/**
 * Values that are one word: never holding a comma, so a comma in one is a list
 * of several, and the 400 says "takes one county slug" rather than the misleading
 * "must be a slug",
 * and named by their noun in that message. Enums, numbers and booleans are one
 * word too, without being registered (kinds.ts).
 */
export const oneWord = z.registry<{ noun: string }>();

/** A real calendar date: 2024-02-30 is refused, not rolled over. */
export const calendarDate = z.iso.date('must be a real calendar date written YYYY-MM-DD').register(oneWord, { noun: 'date' });

export const countySlug = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters')
  .regex(/^[a-z][a-z. -]*$/, 'must be a county slug such as miami-dade')
  .register(oneWord, { noun: 'county slug' });

/** One or more values: repeated (county=a&county=b) or comma-separated (county=a,b). */
export function multi<T extends z.ZodType>(item: T, max = 67) {
  return z.array(item).min(1, 'must have at least one value').max(max, `takes at most ${max} values`);
}

const YEAR = 'must be a whole year from 1990 to 2100';
export const taxYear = z.number({ error: YEAR }).int(YEAR).min(1990, YEAR).max(2100, YEAR).register(oneWord, { noun: 'tax year' });

const AMOUNT = 'must be an amount in dollars from 0 to 1,000,000,000, such as 1500 or 1500.25';
export const money = z.number({ error: AMOUNT }).min(0, AMOUNT).max(1_000_000_000, AMOUNT);

export const boolean = z.boolean('must be true or false');

/** Free text bounded as spec 8.1 says; surrounding space is not part of it. */
export function text(max: number, min = 1) {
  return z
    .string()
    .trim()
    .min(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`);
}

/** List endpoints answer CSV too (plans with CSV); Accept: text/csv works the same. */
export const format = z.enum(['json', 'csv'], 'must be json or csv').optional().describe('json (default) or csv.');

/**
 * Adds "a minimum above its maximum is a 400" for a pair of range parameters,
 * reported on the minimum's name.
 */
export function rangeOrder<T extends Record<string, unknown>>(pairs: [keyof T & string, keyof T & string][]) {
  return (value: T, ctx: z.RefinementCtx) => {
    for (const [lo, hi] of pairs) {
      const a = value[lo];
      const b = value[hi];
      if (a !== undefined && b !== undefined && (a as number | string) > (b as number | string))
        ctx.addIssue({ code: 'custom', path: [lo], message: `must not be greater than ${hi} (${String(b)})` });
    }
  };
}

const RATE = 'must be a bid rate from 0 to 18 in quarter points, such as 0.25, 5 or 17.75';
/** Bids go down from 18% in quarter points (s. 197.432(6)): every rate asked about is one of those 73. */
export const bidRate = z
  .number({ error: RATE })
  .min(0, RATE)
  .max(18, RATE)
  .refine((r) => Number.isInteger(r * 4), RATE);
