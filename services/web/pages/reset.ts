import type { FastifyInstance } from 'fastify';
import { peekToken } from '../../control/accounts/email-tokens.ts';
import { findUserByEmail } from '../../control/accounts/users.ts';
import type { PageContext } from '../context.ts';
import { fieldErrors, NewPasswordForm, ResetRequestForm, TokenQuery } from '../forms.ts';
import { passwordResetMail } from '../mail/links.ts';
import { setPasswordByLink } from '../password-link.ts';
import { message, page } from '../render.ts';
import { throttled } from './throttled.ts';

const SPENT = {
  title: 'This link no longer works',
  text: 'A password reset link works once, for 30 minutes, and only the newest one sent works. Ask for a new one.',
  link: { href: '/account/reset', label: 'Ask for a new link' },
};

/**
 * /account/reset: ask for a link by email (the answer is the same whether an account uses the
 * address or not), then /account/reset?token=... sets a new password. Setting it spends the
 * link, confirms the address (the mail reached its owner) and ends every session of the user
 * (password-link.ts). Posting a link is throttled per client network, and a link that is not
 * live costs no password hashing.
 */
export function resetPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/reset', async (request, reply) => {
    const query = TokenQuery.safeParse(request.query ?? {});
    const asked = (request.query as { token?: unknown } | undefined)?.token !== undefined;
    if (!asked) return page(request, reply, 'reset-request', { title: 'Reset your password', values: {}, errors: {} });
    const token = query.success ? query.data.token : undefined;
    if (token === undefined || (await peekToken(ctx.sql, token, 'reset', ctx.clock())) === null) return message(request, reply, 400, SPENT);
    return page(request, reply, 'reset-password', { title: 'Choose a new password', token, errors: {} });
  });

  scope.post('/reset', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (body.token !== undefined) {
      const form = NewPasswordForm.safeParse(body);
      if (!form.success) {
        const errors = fieldErrors(form.error);
        if (errors.token) return message(request, reply, 400, SPENT);
        return page(request, reply, 'reset-password', { title: 'Choose a new password', token: String(body.token), errors }, 400);
      }
      const wait = await ctx.throttle.link(request.ip, request.id);
      if (!wait.allowed) return message(request, reply, 429, { ...SPENT, title: 'Not accepted', text: throttled(wait.retryAfterSeconds) });
      if ((await setPasswordByLink(ctx, 'reset', form.data.token, form.data.password)) === null) return message(request, reply, 400, SPENT);
      return reply.redirect('/account/signin?notice=password-changed', 303);
    }

    const values = { email: String(body.email ?? '') };
    const form = ResetRequestForm.safeParse(body);
    if (!form.success)
      return page(request, reply, 'reset-request', { title: 'Reset your password', values, errors: fieldErrors(form.error) }, 400);
    const { email } = form.data;
    const wait = await ctx.throttle.attempt('reset', email, request.ip, request.id);
    if (!wait.allowed)
      return page(
        request,
        reply,
        'reset-request',
        { title: 'Reset your password', values, errors: { form: throttled(wait.retryAfterSeconds) } },
        429,
      );
    // The mail share is counted for every address, known or not, so its round trip tells nothing.
    const mayMail = await ctx.throttle.mail(email, request.id);
    const user = await findUserByEmail(ctx.sql, email);
    if (user && mayMail) ctx.postman.post(await passwordResetMail(ctx.sql, ctx.settings.publicUrl, user, ctx.clock()));
    return page(request, reply, 'check-email', {
      title: 'Check your email',
      email,
      text: 'If an account uses this address, we sent it a link to choose a new password. The link works once, for 30 minutes.',
    });
  });
}
