import type { z } from 'zod';
import { IssueList, zodIssues } from '../params/issues.ts';
import { paramMessage } from '../params/messages.ts';
import type { Parsed } from '../params/parse.ts';

/** The largest JSON body a write takes; more is a 413 before anything is parsed. */
export const WRITE_BODY_LIMIT = 64 * 1024;

/**
 * The body limit of the one write that takes a list of up to 10,000 lines (POST
 * /portfolios/{id}/positions): 10,000 lines of about 400 bytes of JSON each, county, number,
 * year, date, amount and a note of a few hundred characters. Still a 413 before anything is
 * parsed beyond it.
 */
export const BULK_WRITE_BODY_LIMIT = 4 * 1024 * 1024;

/** A body limit as the 413 message and the document say it: "64 KiB", "4 MiB". */
export function bodySize(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

/**
 * A write's JSON body, read by its route's zod schema with the words query parameters use
 * (params/messages.ts): each bad field is named in error.details.issues, an unknown one as
 * "unknown parameter". Anything but a JSON object is refused as a whole, under "body". `issues` may
 * already hold problems of the same request (an MCP write tool's path argument), answered together.
 */
export function parseBody<S extends z.ZodType>(schema: S, data: unknown, issues = new IssueList()): Parsed<z.output<S>> {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    issues.add('body', 'must be a JSON object (Content-Type: application/json)');
    return { error: issues.error() };
  }
  const parsed = schema.safeParse(data, { error: paramMessage });
  if (!parsed.success) return { error: zodIssues(parsed.error, issues) };
  return issues.empty ? { value: parsed.data } : { error: issues.error() };
}
