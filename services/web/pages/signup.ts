import type { FastifyInstance } from 'fastify';
import { clientAccount, createTrialAccount } from '../../control/accounts/accounts.ts';
import { NO_PASSWORD } from '../../control/accounts/passwords.ts';
import { EmailTakenError, findUserByEmail, type User } from '../../control/accounts/users.ts';
import type { PageContext } from '../context.ts';
import { fieldErrors, SignUpForm } from '../forms.ts';
import { verificationMail } from '../mail/links.ts';
import { alreadyRegisteredMail } from '../mail/messages.ts';
import { page } from '../render.ts';
import { throttled } from './throttled.ts';

/**
 * /account/signup: email and organisation make a Free Trial client with its 500 credits (spec
 * 8.3) and its first user, and mail a link to confirm the address. The account has no password
 * until the link's holder chooses one on the confirmation page (verify.ts): whoever fills in this
 * form with somebody else's address leaves nothing that works once its owner confirms it. The
 * answer is the same page whether the address is new, already a customer's (mailed "you already
 * have an account") or signed up but not confirmed (mailed a new link), so the form cannot be
 * used to find out who is a customer.
 */
export function signupPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/signup', async (request, reply) => {
    if (request.account) return reply.redirect('/account', 303);
    return page(request, reply, 'signup', { title: 'Create an account', values: {}, errors: {} });
  });

  scope.post('/signup', async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values = { email: String(body.email ?? ''), organisation: String(body.organisation ?? '') };
    const form = SignUpForm.safeParse(body);
    if (!form.success) return page(request, reply, 'signup', { title: 'Create an account', values, errors: fieldErrors(form.error) }, 400);
    const { email, organisation } = form.data;
    const wait = await ctx.throttle.attempt('signup', email, request.ip, request.id);
    if (!wait.allowed)
      return page(
        request,
        reply,
        'signup',
        { title: 'Create an account', values, errors: { form: throttled(wait.retryAfterSeconds) } },
        429,
      );

    const now = ctx.clock();
    const mayMail = await ctx.throttle.mail(email, request.id);
    const known = await findUserByEmail(ctx.sql, email);
    if (known) {
      if (mayMail) await mailKnown(ctx, known, now);
    } else {
      try {
        const { client, user } = await createTrialAccount(ctx.sql, { organisation, email, passwordHash: NO_PASSWORD, now });
        // The trial's 500 credits are in the ledger from signup on, dated at signup.
        await ctx.ledger.touch((await clientAccount(ctx.sql, client, 'live')).account, now);
        if (mayMail) ctx.postman.post(await verificationMail(ctx.sql, ctx.settings.publicUrl, user, now));
      } catch (err) {
        // Two sign-ups with one address at once: the second is told what a known address is told.
        if (!(err instanceof EmailTakenError)) throw err;
        const user = await findUserByEmail(ctx.sql, email);
        if (user && mayMail) await mailKnown(ctx, user, now);
      }
    }
    return page(request, reply, 'check-email', {
      title: 'Check your email',
      email,
      text: 'We sent a link to confirm your address. Open it to choose your password, sign in and create your first API key. It works once, for 24 hours.',
    });
  });
}

/**
 * A sign-up with an address that has an account: a confirmed one is told so (with where to sign
 * in or reset); an unconfirmed one gets a new confirmation link, the way to a link after the
 * first one expired.
 */
async function mailKnown(ctx: PageContext, user: User, now: Date): Promise<void> {
  if (user.emailVerifiedAt === null) ctx.postman.post(await verificationMail(ctx.sql, ctx.settings.publicUrl, user, now));
  else
    ctx.postman.post(
      alreadyRegisteredMail(user.email, `${ctx.settings.publicUrl}/account/signin`, `${ctx.settings.publicUrl}/account/reset`),
    );
}
