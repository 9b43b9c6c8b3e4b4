import type { Client } from './clients.ts';
import { listPacks } from './packs.ts';
import { monthOf } from './periods.ts';
import type { Sql } from '../db/sql.ts';

/** What an operator sees for one client (`taxcert usage show`): read-only, from the balances and the ledger. */
export interface ClientUsage {
  client_id: string;
  plan: string;
  status: string;
  subscription: string;
  month: string;
  events: { live: number; test: number };
  /** The month's live and test buckets and, on a free trial, the one-time trial bucket. */
  buckets: { bucket: string; period: string; granted: number; remaining: number; capped_at: string | null }[];
  packs: { id: string; pack: string; remaining: number; expires_at: string; expired: boolean }[];
  overage_credits_this_month: number;
}

export async function clientUsage(sql: Sql, client: Client, now = new Date()): Promise<ClientUsage> {
  const month = monthOf(now);
  const events = async (env: string) =>
    (
      await sql.get<{ events: number }>('SELECT events FROM usage_counts WHERE client_id = ? AND env = ? AND period = ?', [
        client.id,
        env,
        month,
      ])
    )?.events ?? 0;
  const buckets = await sql.all<ClientUsage['buckets'][number]>(
    `SELECT bucket, period, granted, remaining, capped_at FROM credit_balances
     WHERE client_id = ? AND (period = ? OR bucket = 'trial') ORDER BY bucket`,
    [client.id, month],
  );
  const overage = (await sql.get<{ n: number }>(
    `SELECT coalesce(sum(amount), 0) AS n FROM credit_ledger WHERE client_id = ? AND bucket = 'overage' AND period LIKE ?`,
    [client.id, `${month}-%`],
  ))!;
  const live = await events('live');
  const test = await events('test');
  const packs = await listPacks(sql, client.id);
  return {
    client_id: client.id,
    plan: client.plan,
    status: client.status,
    subscription: client.subscription,
    month,
    events: { live, test },
    buckets,
    packs: packs.map((p) => ({
      id: p.id,
      pack: p.pack,
      remaining: p.expiredAt !== null || p.expiresAt <= now.toISOString() ? 0 : p.remaining,
      expires_at: p.expiresAt,
      expired: p.expiredAt !== null || p.expiresAt <= now.toISOString(),
    })),
    overage_credits_this_month: overage.n,
  };
}

/** Charged requests of one UTC day: charges and overage credits less the refunds that cancel them. */
export interface DayCount {
  day: string;
  requests: number;
}

/**
 * Requests per UTC day in `month` (YYYY-MM) of the client's live or test keys, from the ledger
 * (a refund is dated like the charge it cancels, so a day nets out as the month's events_count
 * does). Days without requests are left out; the account page's chart fills them in.
 */
export async function dailyRequests(sql: Sql, clientId: string, month: string, env: 'live' | 'test' = 'live'): Promise<DayCount[]> {
  const start = `${month}-01T00:00:00.000Z`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(y, m, 1)).toISOString();
  return sql.all<DayCount>(
    `SELECT substr(at, 1, 10) AS day,
       sum(CASE WHEN kind IN ('charge', 'overage') THEN 1 WHEN kind = 'refund' THEN -1 ELSE 0 END) AS requests
     FROM credit_ledger
     WHERE client_id = ? AND at >= ? AND at < ? AND kind IN ('charge', 'overage', 'refund')
       AND (CASE WHEN bucket = 'test' THEN 1 ELSE 0 END) = ?
     GROUP BY 1 ORDER BY 1`,
    [clientId, start, end, env === 'test' ? 1 : 0],
  );
}
