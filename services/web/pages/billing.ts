import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  fulfilOrder,
  newOrderId,
  type Order,
  OrderConflictError,
  orderItem,
  orderPrice,
  placeOrder,
} from '../../control/billing/orders.ts';
import { PACK_NAMES, PACKS, type PackName } from '../../control/billing/packs.ts';
import { getPlan, listPlans, type PlanCode } from '../../control/billing/plans.ts';
import type { PageContext } from '../context.ts';
import { count, usd } from '../format.ts';
import { CheckoutForm, CheckoutItem, SELF_SERVE_PLANS } from '../forms.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';

/**
 * /account/billing: the plans of spec 8.2 and the packs of 8.5 with their prices, as stored
 * (an operator's `taxcert plans set` shows here at once). Choosing one opens a checkout page
 * (/account/billing/checkout?item=plan:pro), whose button goes through the one billing-provider
 * seam (billing/provider.ts); a paid order is fulfilled with the CLI's own writes. Each checkout
 * page carries a new order id and the order is fulfilled once by it (control/billing/orders.ts), so the
 * same form posted twice buys once. Only users with a confirmed address may buy.
 */
export function billingPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/billing', { preHandler: requireUser }, async (request, reply) => {
    const { client } = signedIn(request);
    const selfServe = new Set<string>(SELF_SERVE_PLANS);
    const plans = (await listPlans(ctx.sql)).map((p) => ({
      code: p.code,
      name: p.name,
      price: p.priceUsdCents === null ? 'Custom' : p.code === 'free_trial' ? 'Free' : `${usd(p.priceUsdCents)} a month`,
      credits:
        p.code === 'enterprise' ? 'By contract' : p.code === 'free_trial' ? `${count(p.monthlyCredits)} once` : count(p.monthlyCredits),
      rpm: p.code === 'enterprise' ? 'By contract' : count(p.rpm),
      rest: p.rest ? 'Yes' : 'No',
      mcp: p.mcp ? 'Yes' : 'No',
      csv: p.csv ? 'Yes' : 'No',
      webhooks: { none: 'No', beta: 'Beta', included: 'Yes' }[p.webhooks],
      current: p.code === client.plan,
      choosable: selfServe.has(p.code) && p.code !== client.plan,
    }));
    const packs = PACK_NAMES.map((name) => ({
      code: name,
      name: title(name),
      credits: count(PACKS[name].credits),
      price: usd(PACKS[name].priceUsdCents),
      perThousand: `${((PACKS[name].priceUsdCents / PACKS[name].credits) * 10).toFixed(2)} USD`,
    }));
    return page(request, reply, 'billing', {
      title: 'Plans and packs',
      plans,
      packs,
      provider: ctx.billing === null ? null : { testMode: ctx.billing.testMode },
      active: client.status === 'active',
    });
  });

  scope.get('/billing/checkout', { preHandler: requireUser }, async (request, reply) => {
    const order = orderOf((request.query as { item?: unknown } | undefined)?.item);
    if (!order) return unknownItem(request, reply);
    const refusal = mayBuy(ctx, request, order);
    if (refusal)
      return message(request, reply, 403, {
        title: 'Not available',
        text: refusal,
        link: { href: '/account/billing', label: 'Plans and packs' },
      });
    return page(request, reply, 'checkout', {
      title: 'Checkout',
      item: orderItem(order),
      orderId: newOrderId(),
      description: await describe(ctx, order),
      price: await priceText(ctx, order),
      testMode: ctx.billing?.testMode ?? false,
    });
  });

  scope.post('/billing/checkout', { preHandler: requireUser }, async (request, reply) => {
    const { client, user } = signedIn(request);
    const body = request.body as { item?: unknown; order?: unknown } | undefined;
    const order = orderOf(body?.item);
    if (!order) return unknownItem(request, reply);
    const refusal = mayBuy(ctx, request, order);
    if (refusal || ctx.billing === null)
      return message(request, reply, 403, {
        title: 'Not available',
        text: refusal ?? '',
        link: { href: '/account/billing', label: 'Plans and packs' },
      });
    const form = CheckoutForm.safeParse(body);
    if (!form.success) return unknownItem(request, reply);
    const done = `/account/billing?notice=${order.kind === 'plan' ? 'plan-changed' : 'pack-bought'}`;
    const priceUsdCents = (await orderPrice(ctx.sql, order)) ?? 0;
    let placed: Awaited<ReturnType<typeof placeOrder>>;
    try {
      placed = await placeOrder(ctx.sql, { id: form.data.order, clientId: client.id, order, priceUsdCents, now: ctx.clock() });
    } catch (err) {
      if (!(err instanceof OrderConflictError)) throw err;
      return message(request, reply, 409, {
        title: 'Not available',
        text: 'This checkout page was used for another order. Start again from Plans and packs.',
        link: { href: '/account/billing', label: 'Plans and packs' },
      });
    }
    // The same form again (a double click, a reload): its order is fulfilled already, nothing more is granted.
    if (placed.fulfilledAt !== null) return reply.redirect(done, 303);
    const result = await ctx.billing.checkout({
      orderId: placed.id,
      clientId: client.id,
      email: user.email,
      order,
      priceUsdCents,
      description: await describe(ctx, order),
    });
    if (result.status === 'redirect') return reply.redirect(result.url, 303);
    await fulfilOrder(ctx.sql, placed.id, ctx.clock());
    return reply.redirect(done, 303);
  });
}

function orderOf(item: unknown): Order | null {
  const parsed = CheckoutItem.safeParse(item);
  if (!parsed.success) return null;
  const [kind, name] = parsed.data.split(':') as ['plan' | 'pack', string];
  return kind === 'plan' ? { kind, plan: name as PlanCode } : { kind, pack: name as PackName };
}

function mayBuy(ctx: PageContext, request: FastifyRequest, order: Order): string | null {
  const { client, user } = signedIn(request);
  if (user.emailVerifiedAt === null) return 'Confirm your email address first: open the link we mailed you.';
  if (ctx.billing === null) return 'Plans and packs are changed by our team here: write to us and we will set it up.';
  if (client.status !== 'active') return 'Your account is suspended, so it cannot change plan or buy packs. See the overview for why.';
  if (order.kind === 'plan' && order.plan === client.plan) return 'You are on this plan already.';
  return null;
}

async function describe(ctx: PageContext, order: Order): Promise<string> {
  if (order.kind === 'pack') return `${title(order.pack)} pack: ${count(PACKS[order.pack].credits)} credits, valid 12 months`;
  const plan = await getPlan(ctx.sql, order.plan);
  return `${plan.name} plan: ${count(plan.monthlyCredits)} credits a month, ${count(plan.rpm)} requests a minute`;
}

async function priceText(ctx: PageContext, order: Order): Promise<string> {
  const cents = (await orderPrice(ctx.sql, order)) ?? 0;
  return order.kind === 'plan' ? `${usd(cents)} a month` : `${usd(cents)} once`;
}

function unknownItem(request: FastifyRequest, reply: FastifyReply) {
  return message(request, reply, 400, {
    title: 'Nothing to buy',
    text: 'Choose a plan or a pack from the list.',
    link: { href: '/account/billing', label: 'Plans and packs' },
  });
}

const title = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;
