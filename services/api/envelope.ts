/** The response shapes of spec 2.1 and 2.11; route handlers build bodies only through these. */

export interface Meta {
  request_id: string;
  dataset_status: 'live';
  coverage?: { status: 'not_yet_ingested' };
}

export interface Pagination {
  limit: number;
  offset: number;
  total: number;
  has_more: boolean;
}

export function meta(requestId: string, extra: Partial<Omit<Meta, 'request_id'>> = {}): Meta {
  return { request_id: requestId, dataset_status: 'live', ...extra };
}

export function objectEnvelope<T>(data: T, requestId: string, extra?: Partial<Omit<Meta, 'request_id'>>) {
  return { data, meta: meta(requestId, extra) };
}

export function listEnvelope<T>(
  data: T[],
  page: { limit: number; offset: number; total: number },
  requestId: string,
  extra?: Partial<Omit<Meta, 'request_id'>>,
) {
  return {
    data,
    pagination: { ...page, has_more: page.offset + data.length < page.total },
    meta: meta(requestId, extra),
  };
}

export function errorEnvelope(code: string, message: string, requestId: string, details?: Record<string, unknown>) {
  return { error: { code, message, request_id: requestId, ...(details ? { details } : {}) } };
}
