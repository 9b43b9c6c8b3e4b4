import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ListResult } from '../../envelope.ts';
import { isCsvRequest, sendList } from '../../reply.ts';
import type { CertificateExpansion } from './params.ts';
import { csvColumns, csvRecord, type ExpandedCertificateRow } from './row-view.ts';

/**
 * A certificate list's answer: JSON, GeoJSON (reply.ts), or CSV whose columns are the row's
 * and, with expand=parcel, the parcel's as parcel_<field> (a CSV cell holds one plain value).
 */
export function sendCertificates(
  request: FastifyRequest,
  reply: FastifyReply,
  result: ListResult<ExpandedCertificateRow>,
  expand: readonly CertificateExpansion[] | undefined,
) {
  const flat = expand?.includes('parcel') && isCsvRequest(request) ? { ...result, rows: result.rows.map(csvRecord) } : result;
  return sendList(request, reply, flat, csvColumns(expand));
}
