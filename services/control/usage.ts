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
