import type { FastifyInstance } from 'fastify';
import { peekToken } from '../../control/accounts/email-tokens.ts';
import type { PageContext } from '../context.ts';
import { fieldErrors, TokenQuery, VerifyForm } from '../forms.ts';
import { verificationMail } from '../mail/links.ts';
import { setPasswordByLink } from '../password-link.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn, startSession } from '../session.ts';
import { throttled } from './throttled.ts';

const SPENT = {
  title: 'This link no longer works',
  text: 'A confirmation link works once, for 24 hours, and only the newest one sent works. Sign up again with the same address to get a new link.',
  link: { href: '/account/signup', label: 'Get a new link' },
};

/**
 * /account/verify?token=...: the mailed link opens a page where its holder chooses the
 * account's password, and the button confirms the address with it and signs the user in.
 * Whoever filled in the sign-up form, only the mailbox's owner ends up with a password that
 * works (and any session started before is ended: password-link.ts). Opening the link alone
 * changes nothing, so a mail scanner that fetches every link cannot spend it.
 */
export function verifyPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/verify', async (request, reply) => {
    const query = TokenQuery.safeParse(request.query ?? {});
    const token = query.success ? query.data.token : undefined;
    if (token === undefined || (await peekToken(ctx.sql, token, 'verify', ctx.clock())) === null)
      return message(request, reply, 400, SPENT);
    return page(request, reply, 'verify', { title: 'Confirm your email address', token, errors: {} });
  });

  scope.post('/verify', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const form = VerifyForm.safeParse(body);
    if (!form.success) {
      const errors = fieldErrors(form.error);
      if (errors.token) return message(request, reply, 400, SPENT);
      return page(request, reply, 'verify', { title: 'Confirm your email address', token: String(body.token), errors }, 400);
    }
    const wait = await ctx.throttle.link(request.ip, request.id);
    if (!wait.allowed) return message(request, reply, 429, { ...SPENT, title: 'Not accepted', text: throttled(wait.retryAfterSeconds) });
    const userId = await setPasswordByLink(ctx, 'verify', form.data.token, form.data.password);
    if (userId === null) return message(request, reply, 400, SPENT);
    await startSession(ctx, request, reply, userId);
    return reply.redirect('/account/keys?notice=verified', 303);
  });

  scope.post('/verify/resend', { preHandler: requireUser }, async (request, reply) => {
    const { user } = signedIn(request);
    if (user.emailVerifiedAt !== null) return reply.redirect('/account', 303);
    const wait = await ctx.throttle.attempt('resend', user.email, request.ip, request.id);
    if (!wait.allowed)
      return message(request, reply, 429, {
        title: 'Not sent',
        text: throttled(wait.retryAfterSeconds),
        link: { href: '/account', label: 'Back to the overview' },
      });
    ctx.postman.post(await verificationMail(ctx.sql, ctx.settings.publicUrl, user, ctx.clock()));
    return reply.redirect('/account?notice=verification-sent', 303);
  });
}
