import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findCounty } from '../../domain/county-names.ts';
import { EVENT_TYPES, parseEventId, publicEventId } from '../../control/feed/events.ts';
import { getPlan, listPlans } from '../../control/billing/plans.ts';
import { listDeliveries, ReplayError, replay } from '../../control/feed/webhook-deliveries.ts';
import { ReplayLimitError } from '../../control/feed/webhook-replay-budget.ts';
import { checkClientEndpointInput } from '../../control/feed/webhook-endpoint-input.ts';
import { listSavedSearches } from '../../control/feed/saved-searches.ts';
import { MOST_SAVED_SEARCHES } from '../../api/writes/limits.ts';
import {
  createEndpoint,
  EndpointLimitError,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  setEndpointStatus,
  type WebhookEndpoint,
  WebhooksNotInPlanError,
} from '../../control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../control/feed/webhook-secrets.ts';
import { addressPolicy } from '../../domain/webhook-address.ts';
import type { PageContext, SignedIn } from '../context.ts';
import { moment } from '../format.ts';
import { type FieldErrors, fieldErrors, ReplayForm, WebhookForm, WebhookIdParams } from '../forms.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';

/** Deliveries shown on an endpoint's page, newest first (the CLI and the API page through the rest). */
export const DELIVERIES_SHOWN = 50;

const DISABLED_BECAUSE = {
  operator: 'disabled from this page or by an operator',
  gone: 'disabled: the receiver answered 410 Gone',
  failing: 'disabled: every attempt failed for too long',
} as const;

interface FormState {
  values?: { url: string; types: string[]; counties: string; savedSearches: string[] };
  errors?: FieldErrors;
}

/**
 * /account/webhooks (the webhook tables of the control plane, through the CLI's own functions):
 * add an endpoint (its signing secret shown once, on the answer to the form), disable and
 * enable it, rotate its secret (shown once; the old one signs beside it for 24 hours), and see
 * its deliveries with every attempt, each with a button to send its event again. A plan
 * without webhooks sees which plans have them and no form; its posts are refused.
 */
export function webhooksPage(scope: FastifyInstance, ctx: PageContext): void {
  const box = createSecretBox(ctx.config.WEBHOOK_SECRET_KEY);

  const listing = async (request: FastifyRequest, reply: FastifyReply, form: FormState = {}, status = 200) => {
    const account = signedIn(request);
    const endpoints = await listEndpoints(ctx.sql, account.client.id);
    const searches = (await listSavedSearches(ctx.sql, account.client.id, { limit: MOST_SAVED_SEARCHES, offset: 0 })).rows;
    const names = new Map(searches.map((s) => [s.id, s.name]));
    return page(
      request,
      reply,
      'webhooks',
      {
        title: 'Webhooks',
        ...(await gate(ctx, account)),
        endpoints: endpoints.map((e) => endpointRow(e, names)),
        eventTypes: EVENT_TYPES,
        savedSearches: searches.map((s) => ({ id: s.id, name: s.name })),
        values: form.values ?? { url: '', types: [...EVENT_TYPES], counties: '', savedSearches: [] },
        errors: form.errors ?? {},
      },
      status,
    );
  };

  scope.get('/webhooks', { preHandler: requireUser }, async (request, reply) => listing(request, reply));

  scope.post('/webhooks', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const refusal = (await gate(ctx, account)).refusal;
    if (refusal)
      return message(request, reply, 403, {
        title: 'No new endpoint',
        text: refusal,
        link: { href: '/account/webhooks', label: 'Back to webhooks' },
      });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values = {
      url: typeof body.url === 'string' ? body.url : '',
      types: [body.types ?? []].flat().map(String),
      counties: typeof body.counties === 'string' ? body.counties : '',
      savedSearches: [body.saved_searches ?? []].flat().map(String),
    };
    const form = WebhookForm.safeParse(body);
    if (!form.success) return listing(request, reply, { values, errors: fieldErrors(form.error) }, 400);

    // Counties as a person types them ("Miami-Dade", "st johns"), found as the CLI finds them.
    const slugs: string[] = [];
    for (const name of form.data.counties) {
      const county = findCounty(ctx.registry.counties, name);
      if (!county)
        return listing(
          request,
          reply,
          {
            values,
            errors: { counties: `There is no Florida county called “${name}”. Use names such as Miami-Dade, separated by commas.` },
          },
          400,
        );
      slugs.push(county.slug);
    }
    const everyType = EVENT_TYPES.every((t) => form.data.types.includes(t));
    const checked = await checkClientEndpointInput(
      ctx.sql,
      account.client.id,
      {
        url: form.data.url,
        types: everyType ? undefined : form.data.types,
        counties: slugs.length === 0 ? undefined : slugs,
        savedSearches: form.data.saved_searches.length === 0 ? undefined : form.data.saved_searches,
      },
      { registry: ctx.registry, policy: addressPolicy(ctx.config.NODE_ENV) },
    );
    if (!checked.ok) {
      const errors: FieldErrors = {};
      for (const p of checked.problems) errors[p.field] ??= `The ${FIELD_NAMES[p.field]} ${p.problem}.`;
      return listing(request, reply, { values, errors }, 400);
    }
    try {
      const made = await createEndpoint(ctx.sql, box, { clientId: account.client.id, ...checked.value }, ctx.clock());
      return page(
        request,
        reply,
        'webhook-secret',
        {
          title: 'Your new webhook endpoint',
          secret: made.secret,
          endpoint: endpointRow(made.endpoint),
          rotated: false,
          beta: made.plan === 'beta',
        },
        201,
      );
    } catch (err) {
      if (err instanceof WebhooksNotInPlanError || err instanceof EndpointLimitError)
        return message(request, reply, 403, {
          title: 'No new endpoint',
          text: refusalText(err),
          link: { href: '/account/webhooks', label: 'Back to webhooks' },
        });
      throw err;
    }
  });

  scope.get('/webhooks/:id', { preHandler: requireUser }, async (request, reply) => {
    const endpoint = await ownEndpoint(ctx, request);
    if (!endpoint) return notFound(request, reply);
    const { rows, total } = await listDeliveries(ctx.sql, endpoint.id, { limit: DELIVERIES_SHOWN, offset: 0 });
    return page(request, reply, 'webhook-deliveries', {
      title: 'Webhook deliveries',
      endpoint: endpointRow(endpoint),
      total,
      shown: rows.length,
      deliveries: rows.map((d) => ({
        event: publicEventId(d.eventId),
        type: d.eventType,
        status: d.status,
        next: d.status === 'pending' && d.nextAttemptAt !== null ? moment(d.nextAttemptAt) : null,
        attempts: d.attemptLog.map((a) => ({
          label: `${a.attempt}${a.generation > 0 ? ` (replay ${a.generation})` : ''}`,
          at: moment(a.startedAt),
          outcome: a.httpStatus !== null ? `HTTP ${a.httpStatus}` : (a.error ?? 'No answer'),
          ok: a.httpStatus !== null && a.httpStatus >= 200 && a.httpStatus < 300,
          ms: a.durationMs,
        })),
      })),
    });
  });

  scope.post('/webhooks/:id/disable', { preHandler: requireUser }, async (request, reply) => {
    const endpoint = await ownEndpoint(ctx, request);
    if (!endpoint) return notFound(request, reply);
    await setEndpointStatus(ctx.sql, endpoint.id, { status: 'disabled', reason: 'operator' }, ctx.clock());
    return reply.redirect('/account/webhooks?notice=webhook-disabled', 303);
  });

  scope.post('/webhooks/:id/enable', { preHandler: requireUser }, async (request, reply) => {
    const endpoint = await ownEndpoint(ctx, request);
    if (!endpoint) return notFound(request, reply);
    await setEndpointStatus(ctx.sql, endpoint.id, { status: 'enabled' }, ctx.clock());
    return reply.redirect('/account/webhooks?notice=webhook-enabled', 303);
  });

  scope.post('/webhooks/:id/rotate', { preHandler: requireUser }, async (request, reply) => {
    const endpoint = await ownEndpoint(ctx, request);
    if (!endpoint) return notFound(request, reply);
    const rotated = await rotateSecret(ctx.sql, box, endpoint.id, ctx.clock());
    if (!rotated) return notFound(request, reply);
    return page(
      request,
      reply,
      'webhook-secret',
      { title: 'Your new signing secret', secret: rotated.secret, endpoint: endpointRow(rotated.endpoint), rotated: true, beta: false },
      201,
    );
  });

  scope.post('/webhooks/:id/replay', { preHandler: requireUser }, async (request, reply) => {
    const endpoint = await ownEndpoint(ctx, request);
    if (!endpoint) return notFound(request, reply);
    const back = { href: `/account/webhooks/${endpoint.id}`, label: 'Back to the deliveries' };
    const form = ReplayForm.safeParse(request.body ?? {});
    const eventId = form.success ? parseEventId(form.data.event) : null;
    if (eventId === null)
      return message(request, reply, 400, {
        title: 'Nothing was sent again',
        text: 'Use the Replay button beside a delivery.',
        link: back,
      });
    try {
      await replay(ctx.sql, endpoint, { eventId }, { perMinute: ctx.config.WEBHOOK_REPLAYS_PER_MINUTE, now: ctx.clock() });
    } catch (err) {
      if (err instanceof ReplayError)
        return message(request, reply, 409, { title: 'Nothing was sent again', text: replayRefusal(err), link: back });
      if (err instanceof ReplayLimitError) {
        const seconds = Math.ceil(err.retryAfterMs / 1000);
        reply.header('retry-after', String(seconds));
        return message(request, reply, 429, {
          title: 'Nothing was sent again',
          text: `An account may replay ${err.perMinute} events a minute, and this one has for now. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
          link: back,
        });
      }
      throw err;
    }
    return reply.redirect(`/account/webhooks/${endpoint.id}?notice=replay-queued`, 303);
  });
}

/** Whether this account may add endpoints now, and if not, why and which plans would. */
async function gate(ctx: PageContext, account: SignedIn) {
  const flag = (await getPlan(ctx.sql, account.client.plan)).webhooks;
  const plansWithWebhooks = (await listPlans(ctx.sql))
    .filter((p) => p.webhooks !== 'none')
    .map((p) => (p.webhooks === 'beta' ? `${p.name} (in beta)` : p.name));
  let refusal: string | null = null;
  if (flag === 'none') refusal = `Your plan does not include webhooks. They come with ${plansWithWebhooks.join(', ')}.`;
  else if (account.user.emailVerifiedAt === null) refusal = 'Confirm your email address first: open the link we mailed you.';
  else if (account.client.status !== 'active')
    refusal = 'Your account is suspended, so no endpoints can be added. See the overview for why.';
  return { refusal, inPlan: flag !== 'none', beta: flag === 'beta', plansWithWebhooks };
}

function refusalText(err: WebhooksNotInPlanError | EndpointLimitError): string {
  if (err instanceof EndpointLimitError)
    return 'You have as many endpoints as an account may have. Disable and reuse one, or ask us to delete one you no longer use.';
  return 'Your plan does not include webhooks. See the plans that do under Plans and packs.';
}

function replayRefusal(err: ReplayError): string {
  if (err.code === 'endpoint_disabled') return 'This endpoint is disabled. Enable it first, then send the event again.';
  if (err.code === 'unknown_event') return 'This event is no longer kept (events are pruned after the retention period).';
  return 'This endpoint no longer subscribes to this event.';
}

/** The endpoint the path names, if it belongs to the signed-in user's client (anyone else's is "not found"). */
async function ownEndpoint(ctx: PageContext, request: FastifyRequest): Promise<WebhookEndpoint | null> {
  const params = WebhookIdParams.safeParse(request.params);
  if (!params.success) return null;
  const endpoint = await getEndpoint(ctx.sql, params.data.id);
  return endpoint && endpoint.clientId === signedIn(request).client.id ? endpoint : null;
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return message(request, reply, 404, {
    title: 'No such endpoint',
    text: 'This webhook endpoint does not exist or belongs to another account.',
    link: { href: '/account/webhooks', label: 'Your webhooks' },
  });
}

/** What the form calls each field the control plane's check may name. */
const FIELD_NAMES = { url: 'address', types: 'types', counties: 'counties', saved_searches: 'saved searches' } as const;

/** `names`: the client's saved searches by id; one deleted since is named by its id. */
function endpointRow(e: WebhookEndpoint, names: ReadonlyMap<string, string> = new Map()) {
  return {
    id: e.id,
    url: e.url,
    types: e.types === null ? 'Every type' : e.types.join(', '),
    counties: e.counties === null ? 'Every county' : e.counties.join(', '),
    savedSearches: e.savedSearches === null ? 'Every saved search' : e.savedSearches.map((id) => names.get(id) ?? id).join(', '),
    enabled: e.status === 'enabled',
    status: e.status === 'enabled' ? 'Enabled' : `${e.disabledReason ? DISABLED_BECAUSE[e.disabledReason] : 'disabled'}`.replace(/^d/, 'D'),
    created: moment(e.createdAt),
  };
}
