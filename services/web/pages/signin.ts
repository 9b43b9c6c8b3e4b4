import type { FastifyInstance } from 'fastify';
import { isPasswordHash, needsRehash } from '../../control/accounts/passwords.ts';
import { findUserByEmail, recordSignIn, setPasswordHash } from '../../control/accounts/users.ts';
import type { PageContext } from '../context.ts';
import { fieldErrors, NextPath, SignInForm, SignInQuery } from '../forms.ts';
import { page } from '../render.ts';
import { startSession } from '../session.ts';
import { throttled } from './throttled.ts';

const WRONG = 'The email address or the password is wrong.';
const ENDED = 'Your session ended (after 30 minutes without activity, or 12 hours after you signed in). Sign in again.';

/**
 * /account/signin. Only a user whose address is confirmed may sign in: a wrong password, an
 * unknown address and an unconfirmed account get the same status and words after the same argon2
 * work (the last two are checked against a hash nobody's password matches), and all count
 * against the same throttles, so sign-in cannot tell a customer's address from a new one.
 * Suspended clients' users sign in too: the overview tells them why their keys are refused.
 */
export function signinPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/signin', async (request, reply) => {
    const query = SignInQuery.parse(request.query ?? {});
    if (request.account) return reply.redirect(query.next ?? '/account', 303);
    const ended = (request.query as { ended?: unknown }).ended === '1' || request.sessionEnded;
    return page(request, reply, 'signin', {
      title: 'Sign in',
      values: {},
      errors: ended ? { form: ENDED } : {},
      next: query.next ?? '',
    });
  });

  scope.post('/signin', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const next = NextPath.safeParse(body.next).data ?? '';
    const values = { email: String(body.email ?? '') };
    const again = (errors: Record<string, string>, status: number) =>
      page(request, reply, 'signin', { title: 'Sign in', values, errors, next }, status);

    const form = SignInForm.safeParse(body);
    if (!form.success) return again(fieldErrors(form.error), 400);
    const { email, password } = form.data;
    const wait = await ctx.throttle.attempt('signin', email, request.ip, request.id);
    if (!wait.allowed) return again({ form: throttled(wait.retryAfterSeconds) }, 429);

    const found = await findUserByEmail(ctx.sql, email);
    const user = found && found.emailVerifiedAt !== null && isPasswordHash(found.passwordHash) ? found : null;
    const matches = await ctx.passwords.verify(user?.passwordHash ?? (await ctx.dummyHash), password);
    if (!user || !matches) return again({ form: WRONG }, 400);
    // A hash made at older costs is brought up to today's while the password is at hand.
    if (needsRehash(user.passwordHash)) await setPasswordHash(ctx.sql, user.id, await ctx.passwords.hash(password));
    await recordSignIn(ctx.sql, user.id, ctx.clock());
    await startSession(ctx, request, reply, user.id);
    return reply.redirect(next || '/account', 303);
  });
}
