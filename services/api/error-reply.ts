import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { EngineError } from '../engine/search.ts';
import { errorEnvelope } from './envelope.ts';
import { ApiError, CODE_BY_STATUS } from './errors.ts';
import { BULK_WRITE_BODY_LIMIT, bodySize, WRITE_BODY_LIMIT } from './body-limits.ts';

/**
 * The one place an error becomes a status, headers and the envelope of spec 2.11:
 * app.ts's error handler sends it, and the access layer uses it when a window or
 * credit refusal arrives after the read it ran beside (access/register.ts).
 * 5xx details stay in the log.
 */
export function errorReply(err: unknown, request: FastifyRequest, reply: FastifyReply) {
  // A refusal can replace a CSV answer; its envelope is JSON like every error.
  reply.removeHeader('content-disposition');
  if (err instanceof ApiError) {
    reply.headers(err.headers).code(err.status);
    return errorEnvelope(err.code, err.message, request.id, err.details);
  }
  if (err instanceof EngineError) {
    request.log.error({ err, operation: err.operation, reason: err.reason }, 'engine call failed');
    reply.code(500);
    return errorEnvelope('internal_error', 'internal server error; retry with backoff', request.id);
  }
  const status = typeof (err as FastifyError).statusCode === 'number' ? (err as FastifyError).statusCode! : 500;
  const code = CODE_BY_STATUS.get(status);
  if (status >= 400 && status < 500 && code) {
    // The framework's own 4xx (415, 413, ...): its status, our envelope, a plain message.
    reply.code(status);
    return errorEnvelope(code, frameworkMessage(status, (err as FastifyError).code, request.routeOptions.bodyLimit), request.id);
  }
  request.log.error({ err }, 'request failed');
  reply.code(500);
  return errorEnvelope('internal_error', 'internal server error; retry with backoff', request.id);
}

function frameworkMessage(status: number, code: string | undefined, bodyLimit: number | undefined): string {
  if (status === 413) return `request body too large: ${bodyLimitWords(bodyLimit)}`;
  if (status === 415) return 'unsupported media type: send a JSON body with Content-Type: application/json';
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'bad request: the body is empty; send a JSON object';
  if (code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
    return 'bad request: the body is not valid JSON';
  if (status === 406) return 'not acceptable: this endpoint answers application/json (lists also text/csv)';
  return 'bad request';
}

/** How a 413 states the limit it met: the bulk write's own, or the 64 KiB of every other write. */
function bodyLimitWords(bodyLimit: number | undefined): string {
  if (bodyLimit === BULK_WRITE_BODY_LIMIT) return `a list of positions takes at most ${bodySize(BULK_WRITE_BODY_LIMIT)} of JSON`;
  return `a write takes at most ${bodySize(WRITE_BODY_LIMIT)} of JSON`;
}
