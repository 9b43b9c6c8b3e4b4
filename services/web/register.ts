import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyError, FastifyInstance } from 'fastify';
import { pruneTokens } from '../control/accounts/email-tokens.ts';
import { argon2Hasher, createDummyHash } from '../control/accounts/passwords.ts';
import { pruneSessions } from '../control/accounts/sessions.ts';
import { registerAssets } from './assets.ts';
import { billingProvider } from './billing/provider.ts';
import type { PageContext } from './context.ts';
import type { SiteDeps } from './deps.ts';
import { setPageHeaders } from './headers.ts';
import { createPostman } from './mail/links.ts';
import { createMailer } from './mail/mailer.ts';
import { PAGES } from './pages/index.ts';
import { message } from './render.ts';
import { csrfBinding, loadSession, requireUser } from './session.ts';
import { siteSettings } from './settings.ts';
import { createThrottle } from './throttle.ts';

const VIEWS = fileURLToPath(new URL('./views/', import.meta.url));

const PRUNE_EVERY_MS = 15 * 60 * 1000;

/** Forms are a few short fields; anything larger is not one of ours. */
const FORM_BODY_LIMIT = 16_384;

/**
 * The account page's scope, registered at /account (site.ts). Its plugins (cookies, form
 * bodies, CSRF, templates) and hooks stay inside it: the /api/v1 scope, its headers and the
 * OpenAPI document are untouched, and no route here is published in the document.
 */
export function accountPages(deps: SiteDeps) {
  return async (scope: FastifyInstance) => {
    const settings = siteSettings(deps.config);
    const mailer = createMailer(deps.config, { onOutbox: deps.onOutbox });
    const postman = createPostman(mailer, deps.logger);
    const passwords = deps.passwords ?? argon2Hasher;
    const ctx: PageContext = {
      sql: deps.sql,
      opensearch: deps.opensearch,
      config: deps.config,
      paging: deps.paging,
      logger: deps.logger,
      registry: deps.registry,
      settings,
      clock: deps.clock ?? (() => new Date()),
      ledger: scope.access.ledger,
      rateLimiter: scope.access.rateLimiter,
      throttle: createThrottle(deps.redis, { keyPrefix: deps.config.INDEX_PREFIX, logger: deps.logger }),
      postman,
      billing: deps.billing !== undefined ? deps.billing : billingProvider(deps.config.BILLING_PROVIDER),
      passwords,
      dummyHash: createDummyHash(passwords),
    };
    // Sessions nobody presents again and links nobody opens are deleted every quarter of an hour.
    const pruner = setInterval(() => {
      void (async () => {
        await pruneSessions(ctx.sql, ctx.clock());
        await pruneTokens(ctx.sql, ctx.clock());
      })().catch((err: unknown) =>
        deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'pruning sessions and links failed'),
      );
    }, PRUNE_EVERY_MS).unref();
    scope.addHook('onClose', async () => {
      clearInterval(pruner);
      await postman.drain();
      mailer.close();
    });

    // Pages are HTML for people, not API operations: none goes into the OpenAPI document.
    scope.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true };
    });
    await scope.register(cookie, { secret: settings.cookieSecret });
    // Pages take form posts only: JSON and text bodies are the API's business (a 415 page here).
    scope.removeAllContentTypeParsers();
    await scope.register(formbody, { bodyLimit: FORM_BODY_LIMIT });
    await scope.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: settings.csrfCookie,
      cookieOpts: { path: '/', httpOnly: true, sameSite: 'lax', secure: settings.secureCookies, signed: true },
      // Each token carries an HMAC of the session it was made for, checked against the session
      // the post comes with: a cookie-and-token pair from another session is refused.
      getUserInfo: csrfBinding,
      csrfOpts: { hmacKey: settings.csrfKey },
    });
    await scope.register(view, {
      engine: { eta: new Eta() },
      root: VIEWS,
      // Templates are read once outside development; in development an edit shows on reload.
      production: deps.config.NODE_ENV !== 'development',
    });

    // Every form post carries the CSRF token of its page (against cross-site posts), enforced here for every
    // route that is not a read, so a page added later cannot forget it.
    scope.addHook('onRoute', (route) => {
      const methods = [route.method].flat();
      if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
      const own = route.preHandler === undefined ? [] : [route.preHandler].flat();
      route.preHandler = [scope.csrfProtection, ...own];
    });

    scope.decorateRequest('account', null);
    scope.decorateRequest('sessionEnded', false);
    const session = loadSession(ctx);
    scope.addHook('onRequest', async (request, reply) => {
      setPageHeaders(reply);
      if (!request.url.startsWith('/account/assets/')) await session(request, reply);
    });

    scope.setErrorHandler((err: FastifyError, request, reply) => {
      if (err.code === 'FST_CSRF_INVALID_TOKEN' || err.code === 'FST_CSRF_MISSING_SECRET') {
        // The session the form was made in ended before it was sent: its token is bound to that
        // session, so the post is refused; the person is asked to sign in again, as a page would.
        if (request.sessionEnded) return requireUser(request, reply);
        return message(request, reply, 403, {
          title: 'This form was not accepted',
          text: 'The form did not carry the security code this site puts in it, or the code had expired. Go back, reload the page and send the form again.',
          link: { href: '/account', label: 'Back to your account' },
        });
      }
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500)
        return message(request, reply, status, {
          title: 'This request was not accepted',
          text: 'The page received something it does not take. Go back and use the form on the page.',
          link: { href: '/account', label: 'Back to your account' },
        });
      request.log.error({ err }, 'account page failed');
      return message(request, reply, 500, {
        title: 'Something went wrong',
        text: 'The page could not be shown. Nothing was lost; try again in a minute.',
        link: { href: '/account', label: 'Back to your account' },
      });
    });
    scope.setNotFoundHandler((request, reply) =>
      message(request, reply, 404, {
        title: 'Page not found',
        text: 'There is no page at this address.',
        link: { href: '/account', label: 'Your account' },
      }),
    );

    registerAssets(scope);
    for (const register of PAGES) register(scope, ctx);
  };
}
