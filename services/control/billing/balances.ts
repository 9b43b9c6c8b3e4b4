import type { KeyEnv } from './api-keys.ts';
import type { Sql } from '../db/sql.ts';

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
export async function storedBalances(sql: Sql, clientId: string): Promise<Balances> {
  return {
    buckets: await sql.all<BucketBalance>(
      'SELECT bucket, period, granted, remaining FROM credit_balances WHERE client_id = ? ORDER BY bucket, period',
      [clientId],
    ),
    packs: await sql.all<Balances['packs'][number]>('SELECT id, remaining FROM credit_packs WHERE client_id = ? ORDER BY id', [clientId]),
    events: await sql.all<Balances['events'][number]>(
      'SELECT env, period, events FROM usage_counts WHERE client_id = ? ORDER BY env, period',
      [clientId],
    ),
  };
}

/**
 * The same balances computed from the ledger alone; equal to storedBalances when the
 * books are right (the tests check it after concurrent load).
 */
export async function recomputeBalances(sql: Sql, clientId: string): Promise<Balances> {
  const buckets = await sql.all<BucketBalance>(
    `SELECT bucket, period,
       sum(CASE WHEN kind IN ('grant', 'grant_adjustment') THEN amount ELSE 0 END) AS granted,
       sum(amount) AS remaining
     FROM credit_ledger WHERE client_id = ? AND bucket IN ('monthly', 'test', 'trial')
     GROUP BY bucket, period ORDER BY bucket, period`,
    [clientId],
  );
  const packs = await sql.all<Balances['packs'][number]>(
    `SELECT pack_id AS id, sum(amount) AS remaining FROM credit_ledger
     WHERE client_id = ? AND bucket = 'pack' GROUP BY pack_id ORDER BY pack_id`,
    [clientId],
  );
  // A charged request is a 'charge' row on a spending bucket or an 'overage' row; refunds cancel one.
  const events = await sql.all<Balances['events'][number]>(
    `SELECT CASE WHEN l.bucket = 'test' THEN 'test' ELSE 'live' END AS env,
       substr(l.at, 1, 7) AS period,
       sum(CASE WHEN l.kind IN ('charge', 'overage') THEN 1 WHEN l.kind = 'refund' THEN -1 ELSE 0 END) AS events
     FROM credit_ledger l WHERE l.client_id = ? AND l.kind IN ('charge', 'overage', 'refund')
     GROUP BY 1, 2 ORDER BY 1, 2`,
    [clientId],
  );
  return { buckets, packs, events };
}
