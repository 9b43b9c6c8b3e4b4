import { z } from 'zod';

/**
 * Parameter pieces every endpoint shares (spec 4 and 8.1). Schemas take native
 * JSON values (numbers, booleans, arrays): a REST query string and an MCP tool's
 * arguments are both coerced into them first, by one function (coerce.ts).
 */

export const MAX_LIMIT = 500;

export function limit(defaultValue: number, max: number = MAX_LIMIT) {
  return z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .default(defaultValue)
    .describe(`Page size, 1 to ${max} (default ${defaultValue}).`);
}

export const offset = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .default(0)
  .describe('Rows to skip, 0 or more (default 0). Any offset below pagination.total works, however deep.');

/**
 * Values that are one word: never holding a comma, so a comma in one is a list
 * of several (issue 17 item 8: "takes one county slug", not "must be a slug"),
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

export const taxYear = z
  .number()
  .int('must be a whole year')
  .min(1990, 'must be 1990 or later')
  .max(2100, 'must be 2100 or earlier')
  .register(oneWord, { noun: 'tax year' });

export const money = z.number().min(0, 'must be 0 or more').max(1_000_000_000, 'must be at most 1,000,000,000');

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
