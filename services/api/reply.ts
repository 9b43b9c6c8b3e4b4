import type { FastifyReply, FastifyRequest } from 'fastify';
import { toCsv, wantsCsv } from '../formats/api-csv.ts';
import { type ListResult, listEnvelope, type ObjectResult, objectEnvelope } from './envelope.ts';
import { GEOJSON_TYPE, listFeatureCollection, objectFeatureCollection } from './geojson.ts';

/**
 * The last step of every route: the read function's result in its envelope, or
 * the same rows as CSV when asked for (format=csv or Accept: text/csv).
 */
export function sendList<T extends object>(
  request: FastifyRequest,
  reply: FastifyReply,
  result: ListResult<T>,
  columns: readonly string[],
) {
  if (isCsvRequest(request)) {
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'inline')
      .send(toCsv([...columns], result.rows as Record<string, unknown>[]));
  }
  if (isGeoJsonRequest(request)) return reply.type(GEOJSON_TYPE).send(listFeatureCollection(result, request.id));
  return reply.send(listEnvelope(result, request.id));
}

export function sendObject<T>(request: FastifyRequest, reply: FastifyReply, result: ObjectResult<T>) {
  if (isGeoJsonRequest(request)) return reply.type(GEOJSON_TYPE).send(objectFeatureCollection(result, request.id));
  return reply.send(objectEnvelope(result, request.id));
}

/** format=geojson, only where a route's schema takes it (the certificate lists and by-id). */
export function isGeoJsonRequest(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.format === 'geojson';
}

/** Read by the access layer too (plans without CSV get a 403), so it looks only at the raw request. */
export function isCsvRequest(request: FastifyRequest): boolean {
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  return wantsCsv(typeof format === 'string' ? format : undefined, request.headers.accept);
}
