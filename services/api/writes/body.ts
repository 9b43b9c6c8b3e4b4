import type { z } from 'zod';
import { IssueList, zodIssues } from '../params/issues.ts';
import { paramMessage } from '../params/messages.ts';
import type { Parsed } from '../params/parse.ts';

export { BULK_WRITE_BODY_LIMIT, bodySize, WRITE_BODY_LIMIT } from '../body-limits.ts';

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
