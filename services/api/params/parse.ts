import type { z } from 'zod';
import type { InvalidParamsError } from '../errors.ts';
import { coerceArguments } from './coerce.ts';
import { controlCharacterProblem } from './common.ts';
import { IssueList, zodIssues } from './issues.ts';
import { paramMessage } from './messages.ts';

/**
 * The one reading of a request's parameters, for a REST query string and an MCP tool's
 * arguments alike: coerce what was sent (coerce.ts), then parse what was readable with
 * the route's schema. Every problem of every parameter is in the answer: an unknown name
 * does not hide a bad value beside it, and each is said in the product's words
 * (messages.ts) where the schema has none of its own.
 */
export type Parsed<T> = { value: T; error?: undefined } | { error: InvalidParamsError };

export function parseParams<S extends z.ZodType>(
  schema: S,
  shape: Record<string, z.ZodType>,
  given: Record<string, unknown>,
  issues = new IssueList(),
): Parsed<z.output<S>> {
  const { value } = coerceArguments(shape, given, issues);
  const parsed = schema.safeParse(value, { error: paramMessage });
  if (!parsed.success) return { error: zodIssues(parsed.error, issues) };
  return issues.empty ? { value: parsed.data } : { error: issues.error() };
}

/** Path parameters (ids, slugs): always one string each, under the same control-character rule. */
export function parsePath<S extends z.ZodType>(schema: S, given: Record<string, unknown>): Parsed<z.output<S>> {
  const issues = new IssueList();
  const readable: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(given)) {
    const problem = typeof raw === 'string' ? controlCharacterProblem(raw) : undefined;
    if (problem) issues.add(name, problem);
    else readable[name] = raw;
  }
  const parsed = schema.safeParse(readable, { error: paramMessage });
  if (!parsed.success) return { error: zodIssues(parsed.error, issues) };
  return issues.empty ? { value: parsed.data } : { error: issues.error() };
}
