import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { IssueList } from './params/issues.ts';
import { parseParams, parsePath } from './params/parse.ts';
import { MALFORMED, type ParsedQuery } from './params/query-string.ts';

/**
 * The validator every route uses. The query string is read by the step MCP tools use
 * too (params/parse.ts: coerced into the native values of the route's zod schema, then
 * parsed), so REST and MCP share one schema and one reading of it; path parameters get
 * the same control-character rule and messages. Every problem becomes one
 * InvalidParamsError naming each parameter, which the error handler writes as a 400.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    if (httpPart === 'querystring') {
      const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
      const raw = (data ?? {}) as ParsedQuery;
      const issues = new IssueList();
      for (const parameter of raw[MALFORMED] ?? []) issues.add(parameter, 'malformed percent-encoding in the query string');
      return parseParams(schema, shape, raw, issues);
    }
    return parsePath(schema, (data ?? {}) as Record<string, unknown>);
  };
