import type { Database } from 'better-sqlite3';
import type { Client } from './clients.ts';
import { listPacks } from './packs.ts';
import { monthOf } from './periods.ts';

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

export function clientUsage(db: Database, client: Client, now = new Date()): ClientUsage {
  const month = monthOf(now);
  const events = (env: string) =>
    (
      db.prepare('SELECT events FROM usage_counts WHERE client_id = ? AND env = ? AND period = ?').get(client.id, env, month) as
        | { events: number }
        | undefined
    )?.events ?? 0;
  const buckets = db
    .prepare(
      `SELECT bucket, period, granted, remaining, capped_at FROM credit_balances
       WHERE client_id = ? AND (period = ? OR bucket = 'trial') ORDER BY bucket`,
    )
    .all(client.id, month) as ClientUsage['buckets'];
  const overage = db
    .prepare(`SELECT coalesce(sum(amount), 0) AS n FROM credit_ledger WHERE client_id = ? AND bucket = 'overage' AND period LIKE ?`)
    .get(client.id, `${month}-%`) as { n: number };
  return {
    client_id: client.id,
    plan: client.plan,
    status: client.status,
    subscription: client.subscription,
    month,
    events: { live: events('live'), test: events('test') },
    buckets,
    packs: listPacks(db, client.id).map((p) => ({
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
export function dailyRequests(db: Database, clientId: string, month: string, env: 'live' | 'test' = 'live'): DayCount[] {
  const start = `${month}-01T00:00:00.000Z`;
  const [y, m] = month.split('-').map(Number) as [number, number];
  const end = new Date(Date.UTC(y, m, 1)).toISOString();
  return db
    .prepare(
      `SELECT substr(at, 1, 10) AS day,
         sum(CASE WHEN kind IN ('charge', 'overage') THEN 1 WHEN kind = 'refund' THEN -1 ELSE 0 END) AS requests
       FROM credit_ledger
       WHERE client_id = ? AND at >= ? AND at < ? AND kind IN ('charge', 'overage', 'refund') AND (bucket = 'test') = ?
       GROUP BY 1 ORDER BY 1`,
    )
    .all(clientId, start, end, env === 'test' ? 1 : 0) as DayCount[];
}
