import type { FastifyReply } from 'fastify';

/**
 * Headers on every answer under /account. The pages load only our own
 * CSS and one script file; no inline script or style can run, nothing may frame them
 * (clickjacking of the key and billing buttons), and no address of ours, whose query may hold a
 * single-use token, is sent to another site as a Referer. Pages hold account data: no cache.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function setPageHeaders(reply: FastifyReply): void {
  reply.headers({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'cross-origin-opener-policy': 'same-origin',
    'cache-control': 'no-store',
  });
}
