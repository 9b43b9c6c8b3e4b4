import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiKey, countActiveKeys, createKey, getKey, type KeyEnv, listKeys, revokeKey } from '../../control/billing/api-keys.ts';
import type { PageContext, SignedIn } from '../context.ts';
import { day, moment } from '../format.ts';
import { fieldErrors, KeyForm, KeyIdParams } from '../forms.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';

/** More than enough for rotation and one key per app; a runaway script cannot mint thousands. */
export const MAX_ACTIVE_KEYS = 20;

/**
 * /account/keys: list, create (the raw key shown once, on the answer to the form, never again:
 * spec 5.6), revoke (refused from the very next request: spec 5.8) and rotate (spec 5.9: a new
 * key first, shown once; the old one keeps working until its owner revokes it from that page,
 * once the new one is deployed).
 */
export function keysPage(scope: FastifyInstance, ctx: PageContext): void {
  const listing = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: { values?: Record<string, string>; errors?: Record<string, string> } = {},
    status = 200,
  ) => {
    const account = signedIn(request);
    return page(
      request,
      reply,
      'keys',
      {
        title: 'API keys',
        ...keysModel(account, await listKeys(ctx.sql, account.client.id)),
        values: form.values ?? { env: 'live' },
        errors: form.errors ?? {},
      },
      status,
    );
  };

  scope.get('/keys', { preHandler: requireUser }, async (request, reply) => listing(request, reply));

  scope.post('/keys', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const refusal = await mayCreate(ctx, account);
    if (refusal)
      return message(request, reply, 403, {
        title: 'No new key',
        text: refusal,
        link: { href: '/account/keys', label: 'Back to your keys' },
      });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const form = KeyForm.safeParse(body);
    if (!form.success)
      return listing(
        request,
        reply,
        { values: { name: String(body.name ?? ''), env: String(body.env ?? 'live') }, errors: fieldErrors(form.error) },
        400,
      );
    const made = await createKey(ctx.sql, {
      clientId: account.client.id,
      env: form.data.env as KeyEnv,
      name: form.data.name,
      prefix: ctx.config.KEY_PREFIX,
      secret: ctx.config.KEY_HASH_SECRET,
      now: ctx.clock(),
    });
    return page(
      request,
      reply,
      'key-created',
      { title: 'Your new API key', raw: made.raw, key: keyRow(made.key), replaces: null, publicUrl: ctx.settings.publicUrl },
      201,
    );
  });

  scope.get('/keys/:id/revoke', { preHandler: requireUser }, async (request, reply) => {
    const key = await ownKey(ctx, request);
    if (!key) return notFound(request, reply);
    if (key.revokedAt !== null) return reply.redirect('/account/keys', 303);
    return page(request, reply, 'key-confirm', {
      title: 'Revoke this key?',
      key: keyRow(key),
      action: `/account/keys/${key.id}/revoke`,
      text: 'Requests with this key are refused from the very next one. This cannot be undone.',
      button: 'Revoke the key',
    });
  });

  scope.post('/keys/:id/revoke', { preHandler: requireUser }, async (request, reply) => {
    const key = await ownKey(ctx, request);
    if (!key) return notFound(request, reply);
    await revokeKey(ctx.sql, key.id, ctx.clock());
    return reply.redirect('/account/keys?notice=key-revoked', 303);
  });

  scope.get('/keys/:id/rotate', { preHandler: requireUser }, async (request, reply) => {
    const key = await ownKey(ctx, request);
    if (!key) return notFound(request, reply);
    if (key.revokedAt !== null) return reply.redirect('/account/keys', 303);
    return page(request, reply, 'key-confirm', {
      title: 'Rotate this key?',
      key: keyRow(key),
      action: `/account/keys/${key.id}/rotate`,
      text: 'You get a new key with the same name and kind, shown once. The old key keeps working until you revoke it, so you can deploy the new one first.',
      button: 'Make the new key',
    });
  });

  scope.post('/keys/:id/rotate', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const old = await ownKey(ctx, request);
    if (!old) return notFound(request, reply);
    const refusal = old.revokedAt !== null ? 'This key is revoked already; create a new key instead.' : await mayCreate(ctx, account);
    if (refusal)
      return message(request, reply, 403, {
        title: 'No new key',
        text: refusal,
        link: { href: '/account/keys', label: 'Back to your keys' },
      });
    const made = await createKey(ctx.sql, {
      clientId: account.client.id,
      env: old.env,
      name: old.name ?? undefined,
      prefix: ctx.config.KEY_PREFIX,
      secret: ctx.config.KEY_HASH_SECRET,
      now: ctx.clock(),
    });
    return page(
      request,
      reply,
      'key-created',
      { title: 'Your new API key', raw: made.raw, key: keyRow(made.key), replaces: keyRow(old), publicUrl: ctx.settings.publicUrl },
      201,
    );
  });
}

/** Why this user may not make a key now, or null. */
async function mayCreate(ctx: PageContext, account: SignedIn): Promise<string | null> {
  if (account.user.emailVerifiedAt === null) return 'Confirm your email address first: open the link we mailed you.';
  if (account.client.status !== 'active') return 'Your account is suspended, so its keys are refused. See the overview for why.';
  if ((await countActiveKeys(ctx.sql, account.client.id)) >= MAX_ACTIVE_KEYS)
    return `You have ${MAX_ACTIVE_KEYS} active keys, the most an account may have. Revoke one you no longer use first.`;
  return null;
}

/** The key the path names, if it belongs to the signed-in user's client (anyone else's is "not found"). */
async function ownKey(ctx: PageContext, request: FastifyRequest): Promise<ApiKey | null> {
  const params = KeyIdParams.safeParse(request.params);
  if (!params.success) return null;
  const key = await getKey(ctx.sql, params.data.id);
  return key && key.clientId === signedIn(request).client.id ? key : null;
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return message(request, reply, 404, {
    title: 'No such key',
    text: 'This key does not exist or belongs to another account.',
    link: { href: '/account/keys', label: 'Your keys' },
  });
}

export function keyRow(key: ApiKey) {
  return {
    id: key.id,
    name: key.name ?? 'Made by an operator',
    env: key.env,
    hint: `…${key.hint}`,
    created: day(key.createdAt),
    lastUsed: key.lastUsedAt === null ? 'Never' : moment(key.lastUsedAt),
    status: key.revokedAt === null ? 'Active' : `Revoked ${day(key.revokedAt)}`,
    active: key.revokedAt === null,
  };
}

function keysModel(account: SignedIn, keys: ApiKey[]) {
  return {
    keys: [...keys].reverse().map(keyRow),
    verified: account.user.emailVerifiedAt !== null,
    suspended: account.client.status !== 'active',
    email: account.user.email,
  };
}
