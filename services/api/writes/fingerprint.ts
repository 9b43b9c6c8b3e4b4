import { createHash } from 'node:crypto';

/**
 * What makes two writes "the same request" for an Idempotency-Key: the method, the path and
 * the body as JSON with its keys sorted, so a client that re-serializes its body in another key
 * order is still retrying, while any other value, path or method is another request.
 */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([method.toUpperCase(), path, canonical(body ?? null)]))
    .digest('hex');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  return value;
}
