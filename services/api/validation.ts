import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { coerceArguments } from './params/coerce.ts';
import { IssueList, zodIssues } from './params/issues.ts';
import { MALFORMED, type ParsedQuery } from './params/query-string.ts';

/**
 * The validator every route uses. The query string is first coerced into the
 * native values of the route's zod schema by the step MCP tools use too (so
 * REST and MCP share one schema and one reading of it), then parsed; every
 * problem becomes one InvalidParamsError naming each parameter, which the error
 * handler writes as a 400.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    if (httpPart === 'querystring') {
      const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
      const raw = (data ?? {}) as ParsedQuery;
      const issues = new IssueList();
      for (const parameter of raw[MALFORMED] ?? []) issues.add(parameter, 'malformed percent-encoding in the query string');
      const { value } = coerceArguments(shape, raw, issues);
      if (!issues.empty) return { error: issues.error() };
      const parsed = schema.safeParse(value);
      return parsed.success ? { value: parsed.data } : { error: zodIssues(parsed.error) };
    }
    const parsed = schema.safeParse(data ?? {});
    return parsed.success ? { value: parsed.data } : { error: zodIssues(parsed.error) };
  };
