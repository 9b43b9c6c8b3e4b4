import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ObjectResult } from '../../envelope.ts';
import { sendObject } from '../../reply.ts';
import type { AnalyticsPath } from './rollup-read.ts';

/**
 * An analytic answer, saying in X-Analytics-Path how it was read: `rollup` (added up at ingest)
 * or `scan` (read from the certificates now). The figures are the same either way; the header is
 * for a client timing its calls, and for bench:api.
 */
export function sendAnalytic<T>(request: FastifyRequest, reply: FastifyReply, result: ObjectResult<T> & { path: AnalyticsPath }) {
  reply.header('x-analytics-path', result.path);
  return sendObject(request, reply, result);
}
