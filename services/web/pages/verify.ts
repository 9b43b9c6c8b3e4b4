import type { FastifyInstance } from 'fastify';
import { consumeToken, peekToken } from '../../control/email-tokens.ts';
import { markEmailVerified } from '../../control/users.ts';
import type { PageContext } from '../context.ts';
import { TokenQuery, VerifyForm } from '../forms.ts';
import { verificationMail } from '../mail/links.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn, startSession } from '../session.ts';
import { throttled } from './throttled.ts';

const SPENT = {
  title: 'This link no longer works',
  text: 'A confirmation link works once, for 24 hours, and only the newest one sent works. Sign in and ask for a new link on the overview.',
  link: { href: '/account/signin', label: 'Sign in' },
};

/**
 * /account/verify?token=...: the mailed link opens a page with one button, and the button
 * confirms the address and signs the user in. Opening the link alone changes nothing, so a
 * mail scanner that fetches every link cannot spend it.
 */
export function verifyPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/verify', async (request, reply) => {
    const query = TokenQuery.safeParse(request.query ?? {});
    const token = query.success ? query.data.token : undefined;
    if (token === undefined || (await peekToken(ctx.sql, token, 'verify', ctx.clock())) === null) return message(request, reply, 400, SPENT);
    return page(request, reply, 'verify', { title: 'Confirm your email address', token });
  });

  scope.post('/verify', async (request, reply) => {
    const form = VerifyForm.safeParse(request.body ?? {});
    const now = ctx.clock();
    const userId = form.success ? await consumeToken(ctx.sql, form.data.token, 'verify', now) : null;
    if (userId === null) return message(request, reply, 400, SPENT);
    await markEmailVerified(ctx.sql, userId, now);
    await startSession(ctx, request, reply, userId);
    return reply.redirect('/account/keys?notice=verified', 303);
  });

  scope.post('/verify/resend', { preHandler: requireUser }, async (request, reply) => {
    const { user } = signedIn(request);
    if (user.emailVerifiedAt !== null) return reply.redirect('/account', 303);
    const wait = await ctx.throttle.attempt('resend', user.email, request.ip, request.id);
    if (!wait.allowed) return message(request, reply, 429, { title: 'Not sent', text: throttled(wait.retryAfterSeconds), link: { href: '/account', label: 'Back to the overview' } });
    ctx.postman.post(await verificationMail(ctx.sql, ctx.settings.publicUrl, user, ctx.clock()));
    return reply.redirect('/account?notice=verification-sent', 303);
  });
}
