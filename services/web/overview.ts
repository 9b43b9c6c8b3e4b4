import { readUsage } from '../api/routes/account/read.ts';
import type { Usage } from '../api/routes/account/row.ts';
import { clientAccount } from '../control/accounts/accounts.ts';
import { monthOverage } from '../control/billing/billing.ts';
import type { Client } from '../control/billing/clients.ts';
import { TRIAL_CAP } from '../control/billing/ledger.ts';
import { PACKS } from '../control/billing/packs.ts';
import { TRIAL_FULL_ACCESS_MS } from '../control/billing/periods.ts';
import type { Plan } from '../control/billing/plans.ts';
import { type ClientUsage, clientUsage, dailyRequests, type DayCount } from '../control/billing/usage.ts';
import { type ChartModel, dailyChart } from './chart.ts';
import type { PageContext, SignedIn } from './context.ts';
import { count, day, moment, usd } from './format.ts';

/**
 * The overview: this month as GET /api/v1/account/usage reports it (the same
 * readUsage, for the client's live keys), the bucket's credits, packs, overage, the per-minute
 * limit and the chart. readOverview gathers; overviewModel (pure) words it for the template.
 */
export interface OverviewInput {
  client: Client;
  plan: Plan;
  verified: boolean;
  email: string;
  usage: Usage;
  detail: ClientUsage;
  overage: { credits: number; amountUsdCents: number };
  days: DayCount[];
  now: Date;
}

export async function readOverview(ctx: PageContext, account: SignedIn): Promise<OverviewInput> {
  const now = ctx.clock();
  const { client } = account;
  const { plan, account: charged } = await clientAccount(ctx.sql, client, 'live');
  // Brought up to date as the API's free usage route does before it answers: the month's grant,
  // a plan change, and the trial's cap on the first look after day 7 (spec 8.3).
  await ctx.ledger.touch(charged, now);
  const detail = await clientUsage(ctx.sql, client, now);
  return {
    client,
    plan,
    verified: account.user.emailVerifiedAt !== null,
    email: account.user.email,
    usage: await readUsage(ctx.ledger, { plan, env: 'live', client }, now),
    detail,
    overage: await monthOverage(ctx.sql, client.id, detail.month),
    days: await dailyRequests(ctx.sql, client.id, detail.month, 'live'),
    now,
  };
}

export interface OverviewModel {
  title: string;
  email: string;
  verified: boolean;
  suspension: { status: string; reason: string } | null;
  plan: { name: string; rpm: string; pastDue: boolean };
  usage: { requests: string; quota: string; percent: string; resets: string; plan: string };
  credits: { label: string; remaining: string; granted: string };
  trial: { note: string } | null;
  packs: { name: string; remaining: string; credits: string; expires: string }[];
  overage: { applies: boolean; credits: string; amount: string };
  testRequests: string;
  chart: ChartModel;
}

export function overviewModel(input: OverviewInput): OverviewModel {
  const { client, plan, usage, detail, now } = input;
  const trialBucket = detail.buckets.find((b) => b.bucket === 'trial');
  const monthly = detail.buckets.find((b) => b.bucket === 'monthly' && b.period === detail.month);
  const isTrial = plan.code === 'free_trial';
  const bucket = isTrial ? trialBucket : monthly;
  const unlimited = plan.code === 'enterprise';
  return {
    title: 'Overview',
    email: input.email,
    verified: input.verified,
    suspension: client.status === 'active' ? null : { status: client.status, reason: client.statusReason ?? 'No reason was recorded.' },
    plan: { name: plan.name, rpm: count(plan.rpm), pastDue: client.subscription === 'past_due' },
    usage: {
      requests: count(usage.events_count),
      quota: unlimited ? 'unlimited (contract)' : count(usage.monthly_quota),
      percent: `${usage.percent_used.toFixed(2)} %`,
      resets: moment(usage.reset_date),
      plan: usage.plan,
    },
    credits: {
      label: isTrial ? 'Trial credits left' : 'Credits left this month',
      remaining: count(Math.max(0, bucket?.remaining ?? 0)),
      granted: count(bucket?.granted ?? 0),
    },
    trial: isTrial ? { note: trialNote(client.createdAt, trialBucket?.capped_at ?? null, now) } : null,
    packs: detail.packs
      .filter((p) => !p.expired)
      .map((p) => ({
        name: packName(p.pack),
        remaining: count(p.remaining),
        credits: count(PACKS[p.pack as keyof typeof PACKS]?.credits ?? p.remaining),
        expires: day(p.expires_at),
      })),
    overage: { applies: plan.overage, credits: count(input.overage.credits), amount: usd(input.overage.amountUsdCents) },
    testRequests: count(detail.events.test),
    chart: dailyChart(detail.month, now.toISOString().slice(0, 10), input.days),
  };
}

/** Spec 8.3 in words: seven days of full access, then what is left is capped at 100 credits. */
function trialNote(createdAt: string, cappedAt: string | null, now: Date): string {
  const ends = new Date(Date.parse(createdAt) + TRIAL_FULL_ACCESS_MS).toISOString();
  if (cappedAt !== null)
    return `Your trial's seven days of full access ended on ${day(ends)}, so your balance was capped at ${TRIAL_CAP} credits. When they are used up, requests are refused (402) until you choose a plan.`;
  if (now.toISOString() < ends)
    return `Full access until ${moment(ends)}. After that, whatever is left is capped at ${TRIAL_CAP} credits. Choosing a plan removes the cap.`;
  return `Your trial's seven days of full access ended on ${day(ends)}: your next request caps your balance at ${TRIAL_CAP} credits.`;
}

function packName(pack: string): string {
  return `${pack.charAt(0).toUpperCase()}${pack.slice(1)} pack`;
}
