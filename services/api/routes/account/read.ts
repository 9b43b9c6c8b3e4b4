import type { Ledger } from '../../../control/billing/ledger.ts';
import { nextMonthStart } from '../../../control/billing/periods.ts';
import { testKeyQuota } from '../../../control/billing/plans.ts';
import type { Principal } from '../../access/authenticate.ts';
import type { Usage } from './row.ts';

/** events * 100 / quota, half-up to 2 decimals, in integers so 1/3 does not drift. */
export function percentUsed(events: number, quota: number): number {
  if (quota <= 0) return 0;
  return Math.floor((2 * events * 10_000 + quota) / (2 * quota)) / 100;
}

/**
 * The calling key's bucket this month: live keys see the client's live bucket (all
 * live keys together), test keys the test bucket. Called by route.ts, MCP and the account
 * page's overview (services/web), which passes the signed-in user's client as a live caller.
 */
export async function readUsage(ledger: Ledger, principal: Pick<Principal, 'plan' | 'env' | 'client'>, now = new Date()): Promise<Usage> {
  const { plan, env, client } = principal;
  const quota = env === 'test' ? testKeyQuota(plan.monthlyCredits) : plan.monthlyCredits;
  const events = await ledger.eventsThisMonth(client.id, env, now);
  return {
    events_count: events,
    monthly_quota: quota,
    // Enterprise is "unlimited" by contract (modelled as 2,000,000,000): the spec shows 0.
    percent_used: plan.code === 'enterprise' ? 0 : percentUsed(events, quota),
    reset_date: nextMonthStart(now).toISOString(),
    plan: plan.code,
  };
}
