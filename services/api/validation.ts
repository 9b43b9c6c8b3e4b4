import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { InvalidParamsError } from './errors.ts';
import { coerceQuery, type ParsedQuery, zodIssues } from './params/query-string.ts';

/**
 * The validator every route uses. The query string is first coerced into the
 * native values of the route's zod schema (so REST and MCP share one schema),
 * then parsed; every problem becomes one InvalidParamsError naming each
 * parameter, which the error handler writes as a 400.
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    if (httpPart === 'querystring') {
      const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
      const { value, issues } = coerceQuery(shape, (data ?? {}) as ParsedQuery);
      if (issues.length > 0) return { error: new InvalidParamsError(issues) };
      const parsed = schema.safeParse(value);
      return parsed.success ? { value: parsed.data } : { error: new InvalidParamsError(zodIssues(parsed.error)) };
    }
    const parsed = schema.safeParse(data ?? {});
    return parsed.success ? { value: parsed.data } : { error: new InvalidParamsError(zodIssues(parsed.error)) };
  };
