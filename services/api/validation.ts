import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { IssueList } from './params/issues.ts';
import { parseParams, parsePath } from './params/parse.ts';
import { MALFORMED, type ParsedQuery } from './params/query-string.ts';
import { parseBody } from './writes/body.ts';

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
    // A write's JSON body (services/api/writes): each bad field named, in the same words.
    if (httpPart === 'body') return parseBody(schema, data);
    // Declared headers (Idempotency-Key) are checked; the request keeps all of its headers.
    if (httpPart === 'headers') {
      const checked = parsePath(schema, (data ?? {}) as Record<string, unknown>);
      return checked.error ? checked : { value: data };
    }
    return parsePath(schema, (data ?? {}) as Record<string, unknown>);
  };
