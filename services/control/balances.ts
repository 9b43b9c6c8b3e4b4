import type { Database } from 'better-sqlite3';
import type { KeyEnv } from './api-keys.ts';

/**
 * The balances two ways: as stored (what a request reads) and recomputed from the
 * credit ledger alone. They are equal when the books are right; the tests compare
 * them after concurrent load, and an operator can after any doubt.
 */

export interface BucketBalance {
  bucket: 'monthly' | 'test' | 'trial';
  period: string;
  granted: number;
  remaining: number;
}

export interface Balances {
  buckets: BucketBalance[];
  packs: { id: string; remaining: number }[];
  events: { env: KeyEnv; period: string; events: number }[];
}

/** The balances as stored (what requests read). */
export function storedBalances(db: Database, clientId: string): Balances {
  return {
    buckets: db
      .prepare('SELECT bucket, period, granted, remaining FROM credit_balances WHERE client_id = ? ORDER BY bucket, period')
      .all(clientId) as BucketBalance[],
    packs: db.prepare('SELECT id, remaining FROM credit_packs WHERE client_id = ? ORDER BY id').all(clientId) as Balances['packs'],
    events: db
      .prepare('SELECT env, period, events FROM usage_counts WHERE client_id = ? ORDER BY env, period')
      .all(clientId) as Balances['events'],
  };
}

/**
 * The same balances computed from the ledger alone; equal to storedBalances when the
 * books are right (the tests check it after concurrent load).
 */
export function recomputeBalances(db: Database, clientId: string): Balances {
  const buckets = db
    .prepare(
      `SELECT bucket, period,
         sum(CASE WHEN kind IN ('grant', 'grant_adjustment') THEN amount ELSE 0 END) AS granted,
         sum(amount) AS remaining
       FROM credit_ledger WHERE client_id = ? AND bucket IN ('monthly', 'test', 'trial')
       GROUP BY bucket, period ORDER BY bucket, period`,
    )
    .all(clientId) as BucketBalance[];
  const packs = db
    .prepare(
      `SELECT pack_id AS id, sum(amount) AS remaining FROM credit_ledger
       WHERE client_id = ? AND bucket = 'pack' GROUP BY pack_id ORDER BY pack_id`,
    )
    .all(clientId) as Balances['packs'];
  // A charged request is a 'charge' row on a spending bucket or an 'overage' row; refunds cancel one.
  const events = db
    .prepare(
      `SELECT CASE WHEN l.bucket = 'test' THEN 'test' ELSE 'live' END AS env,
         substr(l.at, 1, 7) AS period,
         sum(CASE WHEN l.kind IN ('charge', 'overage') THEN 1 WHEN l.kind = 'refund' THEN -1 ELSE 0 END) AS events
       FROM credit_ledger l WHERE l.client_id = ? AND l.kind IN ('charge', 'overage', 'refund')
       GROUP BY 1, 2 ORDER BY 1, 2`,
    )
    .all(clientId) as Balances['events'];
  return { buckets, packs, events };
}
