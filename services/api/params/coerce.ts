import type { z } from 'zod';
import { controlCharacterProblem } from './common.ts';
import { IssueList, shortText, unknownMessage } from './issues.ts';
import { type Kind, kindOf } from './kinds.ts';

/**
 * The one step from what a caller sends to the native JSON values the parameter
 * schemas take, for a REST query string (every value a string, a repeated name
 * an array) and an MCP tool's arguments (JSON values) alike, so a tool accepts
 * exactly what its REST route accepts (agents send single values and numbers as
 * text all the time, and refusing what REST accepts only confused them):
 *
 * - a multi-value filter takes one value, a comma-separated string or an array
 *   (of values or comma-separated strings);
 * - a number or boolean may come as its text ("25", "true");
 * - a single-valued parameter takes one value, or an array of exactly one; a
 *   one-word value (a slug, an enum, a date, a number) with commas in it is a
 *   list, refused as "takes one", not as a malformed value (which would mislead:
 *   common.ts, oneWord);
 * - an unknown name is an error (a typo must never silently widen a search);
 * - text holding a control character is an error, whatever the parameter (common.ts).
 *
 * Anything else (an object, null, a number where text goes) is left as it is for
 * the schema to refuse by name.
 */
export interface Coerced {
  value: Record<string, unknown>;
  issues: IssueList;
}

export function coerceArguments(shape: Record<string, z.ZodType>, given: Record<string, unknown>, issues = new IssueList()): Coerced {
  const value: Record<string, unknown> = {};
  const known = Object.keys(shape);
  for (const name of Object.keys(given)) {
    const raw = given[name];
    if (raw === undefined) continue;
    const schema = Object.hasOwn(shape, name) ? shape[name] : undefined;
    if (!schema) {
      issues.add(name, unknownMessage, known);
      continue;
    }
    const control = controlProblem(raw);
    if (control) {
      issues.add(name, control);
      continue;
    }
    const kind = kindOf(schema);
    const values = kind.word || kind.list ? split(raw) : Array.isArray(raw) ? raw : [raw];
    if (values.some((v) => v === '') && (kind.list || values.length > 1)) {
      issues.add(name, 'has an empty value (check for a stray comma)');
      continue;
    }
    if (kind.list) value[name] = values.map((v) => scalar(kind, v));
    else if (values.length === 1) value[name] = scalar(kind, values[0]);
    else issues.add(name, takesOne, { kind, values });
  }
  return { value, issues };
}

/** The control-character rule (common.ts) over every text given, before any is trimmed or split. */
function controlProblem(raw: unknown): string | undefined {
  for (const item of Array.isArray(raw) ? raw : [raw]) {
    const problem = typeof item === 'string' ? controlCharacterProblem(item) : undefined;
    if (problem) return problem;
  }
  return undefined;
}

/** Several values out of one: array items, and the parts of comma-separated text, trimmed. */
function split(raw: unknown): unknown[] {
  const items = Array.isArray(raw) ? raw : [raw];
  return items.flatMap((item) => (typeof item === 'string' ? item.split(',').map((part) => part.trim()) : [item]));
}

/** A number as text, the only form a query string has: plain decimal, no exponent or hex. */
export const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

function scalar(kind: Kind, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (kind.scalar === 'number') return NUMBER_TEXT.test(value) ? Number(value) : value;
  if (kind.scalar === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

function takesOne(_parameter: string, { kind, values }: { kind: Kind; values: unknown[] }): string {
  if (values.length === 0) return `takes one ${kind.noun}, given none`;
  const shown = values.slice(0, 3).map(describe);
  return `takes one ${kind.noun}, not several (given ${values.length}: ${shown.join(', ')}${values.length > 3 ? ', …' : ''})`;
}

/** A value as a message shows it: text cut short, and never a whole array or object written out. */
function describe(value: unknown): string {
  if (typeof value === 'string') return shortText(value);
  if (Array.isArray(value)) return 'an array';
  if (value !== null && typeof value === 'object') return 'an object';
  return String(value);
}
