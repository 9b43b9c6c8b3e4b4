import type { Sql } from '../db/sql.ts';

/** Plans as data (spec 8.2), seeded by migration 010 and changed with `taxcert plans set`. */

export const PLAN_CODES = ['free_trial', 'developer', 'pro', 'growth', 'lead_feed', 'enterprise', 'mcp_starter'] as const;
export type PlanCode = (typeof PLAN_CODES)[number];
export type WebhooksFlag = 'none' | 'beta' | 'included';

export interface Plan {
  code: PlanCode;
  name: string;
  /** Monthly price in USD cents; null for Enterprise (custom contract). */
  priceUsdCents: number | null;
  monthlyCredits: number;
  rpm: number;
  rest: boolean;
  mcp: boolean;
  csv: boolean;
  webhooks: WebhooksFlag;
  /** Paid plans that keep answering past the monthly grant and bill overage. */
  overage: boolean;
}

/**
 * Test keys draw on their own monthly bucket: a tenth of the live quota, at most
 * 10,000 credits (free trial 50, Developer 1,000, Pro 5,000, Growth and up 10,000,
 * MCP Starter 100). Enough to exercise an integration, never enough to run on.
 */
export function testKeyQuota(liveQuota: number): number {
  return Math.min(10_000, Math.floor(liveQuota / 10));
}

export function isPlanCode(value: string): value is PlanCode {
  return (PLAN_CODES as readonly string[]).includes(value);
}

export interface PlanRow {
  code: string;
  name: string;
  price_usd_cents: number | null;
  monthly_credits: number;
  rpm: number;
  rest: number;
  mcp: number;
  csv: number;
  webhooks: string;
  overage: number;
}

export function mapPlanRow(row: PlanRow): Plan {
  return {
    code: row.code as PlanCode,
    name: row.name,
    priceUsdCents: row.price_usd_cents,
    monthlyCredits: row.monthly_credits,
    rpm: row.rpm,
    rest: row.rest === 1,
    mcp: row.mcp === 1,
    csv: row.csv === 1,
    webhooks: row.webhooks as WebhooksFlag,
    overage: row.overage === 1,
  };
}

/** The plan as it applies to one client: its contract numbers (Enterprise), where set, replace the plan's. */
export function effectivePlan(plan: Plan, overrides: { monthlyCredits: number | null; rpm: number | null }): Plan {
  return { ...plan, monthlyCredits: overrides.monthlyCredits ?? plan.monthlyCredits, rpm: overrides.rpm ?? plan.rpm };
}

export async function listPlans(sql: Sql): Promise<Plan[]> {
  const rows = await sql.all<PlanRow>('SELECT * FROM plans');
  return rows.map(mapPlanRow).sort((a, b) => PLAN_CODES.indexOf(a.code) - PLAN_CODES.indexOf(b.code));
}

export async function getPlan(sql: Sql, code: PlanCode): Promise<Plan> {
  const row = await sql.get<PlanRow>('SELECT * FROM plans WHERE code = ?', [code]);
  if (!row) throw new Error(`plan ${code} is missing from the database`);
  return mapPlanRow(row);
}

/** Changes a plan's numbers; returns the plan as stored. */
export async function setPlan(sql: Sql, code: PlanCode, change: { monthlyCredits?: number; rpm?: number }): Promise<Plan> {
  await sql.run(
    `UPDATE plans SET monthly_credits = coalesce(@monthlyCredits, monthly_credits), rpm = coalesce(@rpm, rpm) WHERE code = @code`,
    {
      code,
      monthlyCredits: change.monthlyCredits ?? null,
      rpm: change.rpm ?? null,
    },
  );
  return getPlan(sql, code);
}
