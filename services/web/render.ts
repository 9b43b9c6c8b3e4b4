import type { FastifyReply, FastifyRequest } from 'fastify';
import { navFor } from './nav.ts';
import { csrfBinding } from './session.ts';

/**
 * The one way a page is drawn: its template with the frame every page shares (who is signed
 * in, the navigation, the CSRF token for the forms, a notice). Routes build the view model;
 * templates only print it.
 */

/** Short confirmations carried across a redirect as a code (?notice=), never as free text. */
export const NOTICES = {
  'signed-out': 'You are signed out.',
  'password-changed': 'Your password is changed. Sign in with the new one.',
  verified: 'Your email address is confirmed. You can create API keys now.',
  'verification-sent': 'We sent a new confirmation link. It works for 24 hours.',
  'key-revoked': 'The key is revoked. Requests with it are refused from now on.',
  'plan-changed': 'Your plan is changed. It applies from your next request.',
  'webhook-disabled': 'The endpoint is disabled. Events recorded meanwhile are not sent; replay them once it is enabled again.',
  'webhook-enabled': 'The endpoint is enabled. New events are sent to it again.',
  'replay-queued': 'The event is queued to be sent again. Its attempts show here as they happen.',
  'saved-search-created': 'The search is saved. Its alerts show here as the data changes.',
  'saved-search-renamed': 'The saved search is renamed.',
  'saved-search-deleted': 'The saved search is deleted. It sends no more alerts.',
  'portfolio-created': 'The portfolio is made. Upload a CSV of positions below.',
  'portfolio-deleted': 'The portfolio is deleted, with its positions and its calendar address.',
  'calendar-revoked': 'The calendar address is revoked. Calendar apps subscribed to it get nothing from now on.',
  'position-added': 'The certificate is added to this portfolio.',
  'pack-bought': 'The credit pack is added. Its credits are used after your monthly credits.',
} as const;
export type NoticeCode = keyof typeof NOTICES;

function noticeOf(request: FastifyRequest): string | null {
  const code = (request.query as { notice?: unknown } | undefined)?.notice;
  return typeof code === 'string' && Object.hasOwn(NOTICES, code) ? NOTICES[code as NoticeCode] : null;
}

export interface Frame {
  user: { email: string; organisation: string } | null;
  nav: ReturnType<typeof navFor>;
  csrf: string;
  notice: string | null;
}

export function frame(request: FastifyRequest, reply: FastifyReply): Frame {
  const account = request.account;
  return {
    user: account ? { email: account.user.email, organisation: account.client.name } : null,
    nav: navFor(request.url.split('?')[0] ?? ''),
    csrf: reply.generateCsrf({ userInfo: csrfBinding(request) }),
    notice: noticeOf(request),
  };
}

export function page(
  request: FastifyRequest,
  reply: FastifyReply,
  template: string,
  model: { title: string } & Record<string, unknown>,
  status = 200,
) {
  return reply.code(status).view(template, { ...model, frame: frame(request, reply) });
}

/** A page of its own saying one thing (an expired link, a refused form), with a way on. */
export function message(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  content: { title: string; text: string; link?: { href: string; label: string } },
) {
  return page(request, reply, 'message', content, status);
}
