import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { getClient } from '../control/billing/clients.ts';
import { createSession, deleteSession, useSession } from '../control/accounts/sessions.ts';
import { getUser } from '../control/accounts/users.ts';
import type { PageContext } from './context.ts';

/**
 * The account page's sessions on the wire: which cookie, with which flags, and who it names.
 * The rows and their clocks are services/control/accounts/sessions.ts.
 */
function cookieOptions(ctx: PageContext) {
  // No Max-Age: the browser drops it when it closes; the server ends it sooner (idle 30 min, 12 h at most).
  return { path: '/', httpOnly: true, secure: ctx.settings.secureCookies, sameSite: 'lax' as const };
}

/** onRequest: who is signed in, or null (and whether a session just ended, to say so). */
export function loadSession(ctx: PageContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    request.account = null;
    request.sessionEnded = false;
    const cookie = request.cookies[ctx.settings.sessionCookie];
    if (!cookie) return;
    const found = await useSession(ctx.sql, cookie, ctx.clock());
    const user = found && 'session' in found ? await getUser(ctx.sql, found.session.userId) : null;
    const client = user ? await getClient(ctx.sql, user.clientId) : null;
    if (!user || !client) {
      request.sessionEnded = found !== null;
      reply.clearCookie(ctx.settings.sessionCookie, cookieOptions(ctx));
      return;
    }
    request.account = { user, client, cookie };
  };
}

/**
 * Signs a user in with a new session id (rotated at sign-in, so an id planted before sign-in
 * is worth nothing after it: session fixation). The session the browser came with, if any, is ended, and
 * the CSRF secret is dropped so the signed-in pages get a new one.
 */
export async function startSession(ctx: PageContext, request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
  const previous = request.cookies[ctx.settings.sessionCookie];
  if (previous) await deleteSession(ctx.sql, previous);
  const id = await createSession(ctx.sql, userId, ctx.clock());
  reply.setCookie(ctx.settings.sessionCookie, id, cookieOptions(ctx));
  reply.clearCookie(ctx.settings.csrfCookie, cookieOptions(ctx));
}

export async function endSession(ctx: PageContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const cookie = request.cookies[ctx.settings.sessionCookie];
  if (cookie) await deleteSession(ctx.sql, cookie);
  reply.clearCookie(ctx.settings.sessionCookie, cookieOptions(ctx));
  reply.clearCookie(ctx.settings.csrfCookie, cookieOptions(ctx));
}

/**
 * What a CSRF token is bound to: the session it was made for (a digest of its cookie), or
 * "anonymous" before sign-in. A token and its cookie made in one session are refused with
 * another's session cookie, so a pair an attacker obtained for themselves and planted in a
 * victim's browser does not pass the victim's forms. Sign-in clears the CSRF cookie (startSession),
 * so anonymous pairs do not outlive it either.
 */
export function csrfBinding(request: FastifyRequest): string {
  const account = request.account;
  return account ? `session:${createHash('sha256').update(account.cookie).digest('base64url')}` : 'anonymous';
}

/** preHandler of the pages that need a signed-in user: anyone else goes to sign in, and comes back after. */
export async function requireUser(request: FastifyRequest, reply: FastifyReply) {
  if (request.account) return;
  const path = request.url.split('?')[0] ?? '/account';
  const query = new URLSearchParams({ next: request.method === 'GET' ? path : '/account' });
  if (request.sessionEnded) query.set('ended', '1');
  return reply.redirect(`/account/signin?${query}`, 303);
}

/** The signed-in user of a page behind requireUser. */
export function signedIn(request: FastifyRequest) {
  if (!request.account) throw new Error('page without requireUser');
  return request.account;
}
