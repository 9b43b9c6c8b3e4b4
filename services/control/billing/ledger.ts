import type { KeyEnv } from './api-keys.ts';
import type { SubscriptionStatus } from './clients.ts';
import { dayOf, monthOf, TRIAL_FULL_ACCESS_MS } from './periods.ts';
import { type Plan, testKeyQuota } from './plans.ts';
import type { Sql } from '../db/sql.ts';

/**
 * The credit ledger and the one transaction that charges a request (spec 8.2-8.5).
 * Spending order: the bucket of the key (monthly grant, the free trial's one-time
 * grant, or the test keys' own bucket), then pack credits soonest-expiring first,
 * then overage for active paid subscriptions; otherwise the request is refused.
 * Every move is a ledger row written in the same write transaction as the balance it
 * changes, so two API processes on one control plane never charge a credit twice. The
 * transactions take the control plane's default lock: packs, billing and plan changes write
 * the same rows under it, and a batch of charges (chargeMany) spans several clients.
 */

/** Who is being charged: the client's row and its plan with contract overrides applied. */
export interface Account {
  clientId: string;
  plan: Plan;
  subscription: SubscriptionStatus;
  /** Signup time (ISO), the start of the free trial's 7 days. */
  createdAt: string;
  env: KeyEnv;
}

/** After 7 days the trial balance is capped at min(remaining, 100) (spec 8.3). */
export const TRIAL_CAP = 100;

export type BucketName = 'monthly' | 'test' | 'trial' | 'pack' | 'overage';

/** What a successful charge took, so a failed request can give exactly that credit back. */
export interface Reservation {
  clientId: string;
  env: KeyEnv;
  bucket: BucketName;
  period: string;
  packId: string | null;
  at: string;
  requestId: string;
}

export type ChargeOutcome = { ok: true; reservation: Reservation } | { ok: false; reason: 'payment_required' | 'quota_exhausted' };

interface BalanceRow {
  granted: number;
  remaining: number;
  capped_at: string | null;
}

/** One request's charge in a batch (chargeMany). */
export interface ChargeRequest {
  account: Account;
  now: Date;
  requestId: string;
}

export interface Ledger {
  /** Takes one credit for a request, or says why not. One write transaction. */
  charge(account: Account, now: Date, requestId: string): Promise<ChargeOutcome>;
  /**
   * The charges of several requests in one write transaction, in the order given: each
   * outcome is what charge() would have said had they run one after another. A charge
   * that throws leaves its error in its slot; the others are still charged.
   */
  chargeMany(requests: readonly ChargeRequest[]): Promise<(ChargeOutcome | Error)[]>;
  /** Gives back what charge took (the request did not succeed). */
  refund(reservation: Reservation): Promise<void>;
  /** Brings the key's bucket up to date (grant, plan change, trial cap) without charging. */
  touch(account: Account, now: Date): Promise<void>;
  /** Charged requests of the client's live or test keys in the month of `now`. */
  eventsThisMonth(clientId: string, env: KeyEnv, now: Date): Promise<number>;
}

const GET_BALANCE = 'SELECT granted, remaining, capped_at FROM credit_balances WHERE client_id = ? AND bucket = ? AND period = ?';
const INSERT_BALANCE = 'INSERT INTO credit_balances (client_id, bucket, period, granted, remaining) VALUES (?, ?, ?, ?, ?)';
const ADD_TO_BALANCE =
  'UPDATE credit_balances SET remaining = remaining + @delta, granted = granted + @grant WHERE client_id = @clientId AND bucket = @bucket AND period = @period';
const MARK_CAPPED = 'UPDATE credit_balances SET remaining = ?, capped_at = ? WHERE client_id = ? AND bucket = ? AND period = ?';
const INSERT_LEDGER = `INSERT INTO credit_ledger (client_id, kind, bucket, period, pack_id, amount, at, request_id)
     VALUES (@clientId, @kind, @bucket, @period, @packId, @amount, @at, @requestId)`;
const DUE_EXPIRIES = 'SELECT id, remaining, expires_at FROM credit_packs WHERE client_id = ? AND expired_at IS NULL AND expires_at <= ?';
const EXPIRE_PACK = 'UPDATE credit_packs SET remaining = 0, expired_at = ? WHERE id = ?';
const NEXT_PACK = `SELECT id FROM credit_packs WHERE client_id = ? AND expired_at IS NULL AND remaining > 0 AND expires_at > ?
     ORDER BY expires_at, id LIMIT 1`;
const ADD_TO_PACK = 'UPDATE credit_packs SET remaining = remaining + ? WHERE id = ?';
const COUNT_EVENT = `INSERT INTO usage_counts (client_id, env, period, events) VALUES (@clientId, @env, @period, @delta)
     ON CONFLICT (client_id, env, period) DO UPDATE SET events = usage_counts.events + @delta`;
const GET_EVENTS = 'SELECT events FROM usage_counts WHERE client_id = ? AND env = ? AND period = ?';

type Entry = {
  clientId: string;
  kind: string;
  bucket: BucketName;
  period: string;
  packId?: string | null;
  amount: number;
  at: string;
  requestId?: string | null;
};

/** One credit from the key's own bucket when it needs nothing else first (ownBucket); no row otherwise. */
const TAKE_OWN = `UPDATE credit_balances SET remaining = remaining - 1
  WHERE client_id = @clientId AND bucket = @bucket AND period = @period AND remaining > 0
    AND (CAST(@quota AS BIGINT) IS NULL OR granted = CAST(@quota AS BIGINT))
    AND (capped_at IS NOT NULL OR CAST(@capDue AS BIGINT) = 0)
  RETURNING remaining`;

/**
 * PostgreSQL only: TAKE_OWN, the ledger row and the month's event count in one statement (data-
 * modifying CTEs, which SQLite lacks); the inserts see TAKE_OWN's row or nothing. Same effect as
 * TAKE_OWN, INSERT_LEDGER and COUNT_EVENT one after another.
 */
const TAKE_OWN_AND_RECORD = `WITH taken AS (${TAKE_OWN}),
  charged AS (
    INSERT INTO credit_ledger (client_id, kind, bucket, period, pack_id, amount, at, request_id)
    SELECT CAST(@clientId AS TEXT), 'charge', CAST(@bucket AS TEXT), CAST(@period AS TEXT), NULL, -1, CAST(@at AS TEXT), CAST(@requestId AS TEXT) FROM taken
    RETURNING id
  ),
  counted AS (
    INSERT INTO usage_counts (client_id, env, period, events)
    SELECT CAST(@clientId AS TEXT), CAST(@env AS TEXT), CAST(@month AS TEXT), 1 FROM taken
    ON CONFLICT (client_id, env, period) DO UPDATE SET events = usage_counts.events + 1
    RETURNING events
  )
  SELECT remaining FROM taken`;

export function createLedger(sql: Sql): Ledger {
  const write = (tx: Sql, e: Entry) => tx.run(INSERT_LEDGER, { packId: null, requestId: null, ...e });
  const addToBalance = (tx: Sql, p: { clientId: string; bucket: string; period: string; delta: number; grant: number }) =>
    tx.run(ADD_TO_BALANCE, p);
  const countEvent = (tx: Sql, p: { clientId: string; env: KeyEnv; period: string; delta: number }) => tx.run(COUNT_EVENT, p);

  /** Which bucket the key spends first, what it must have been granted, and whether the trial cap is due. */
  function ownBucket(
    account: Account,
    now: Date,
  ): { bucket: 'monthly' | 'test' | 'trial'; period: string; quota: number | null; capDue: boolean } {
    const { plan } = account;
    // The trial's grant is never adjusted (null: any), and its cap is due once after its 7 days.
    if (account.env === 'live' && plan.code === 'free_trial')
      return {
        bucket: 'trial',
        period: 'signup',
        quota: null,
        capDue: now.getTime() - Date.parse(account.createdAt) > TRIAL_FULL_ACCESS_MS,
      };
    const quota = account.env === 'test' ? testKeyQuota(plan.monthlyCredits) : plan.monthlyCredits;
    return { bucket: account.env === 'test' ? 'test' : 'monthly', period: monthOf(now), quota, capDue: false };
  }

  /** The key's own bucket, created (granted) on first use and regranted when the plan's number changed. */
  async function currentBucket(
    tx: Sql,
    account: Account,
    now: Date,
  ): Promise<{ bucket: 'monthly' | 'test' | 'trial'; period: string; row: BalanceRow }> {
    const at = now.toISOString();
    const { clientId, plan } = account;
    const { bucket, period, quota, capDue } = ownBucket(account, now);
    // The trial's grant (quota null) is given once, dated at signup; a monthly or test grant is dated now.
    const granted = quota ?? plan.monthlyCredits;
    let row = await tx.get<BalanceRow>(GET_BALANCE, [clientId, bucket, period]);
    if (!row) {
      await tx.run(INSERT_BALANCE, [clientId, bucket, period, granted, granted]);
      await write(tx, { clientId, kind: 'grant', bucket, period, amount: granted, at: quota === null ? account.createdAt : at });
      row = { granted, remaining: granted, capped_at: null };
    } else if (quota !== null && row.granted !== quota) {
      // The operator changed the plan's (or the contract's) number this month: the grant follows it.
      const delta = quota - row.granted;
      await write(tx, { clientId, kind: 'grant_adjustment', bucket, period, amount: delta, at });
      await addToBalance(tx, { clientId, bucket, period, delta, grant: delta });
      row = { ...row, granted: quota, remaining: row.remaining + delta };
    }
    if (capDue && row.capped_at === null) {
      const capped = Math.min(Math.max(row.remaining, 0), TRIAL_CAP);
      // Written once, even when nothing is taken away, so the ledger shows when the cap applied.
      await write(tx, { clientId, kind: 'free_trial_expired_cap', bucket, period, amount: capped - row.remaining, at });
      await tx.run(MARK_CAPPED, [capped, at, clientId, bucket, period]);
      row = { ...row, remaining: capped, capped_at: at };
    }
    return { bucket, period, row };
  }

  async function expireDuePacks(tx: Sql, clientId: string, now: Date): Promise<void> {
    const at = now.toISOString();
    for (const pack of await tx.all<{ id: string; remaining: number; expires_at: string }>(DUE_EXPIRIES, [clientId, at])) {
      await write(tx, {
        clientId,
        kind: 'pack_expiry',
        bucket: 'pack',
        period: pack.expires_at.slice(0, 7),
        packId: pack.id,
        amount: -pack.remaining,
        at,
      });
      await tx.run(EXPIRE_PACK, [at, pack.id]);
    }
  }

  async function chargeOne(tx: Sql, account: Account, now: Date, requestId: string): Promise<ChargeOutcome> {
    const at = now.toISOString();
    const { clientId, env } = account;
    const taken = async (r: Omit<Reservation, 'clientId' | 'env' | 'at' | 'requestId'>): Promise<ChargeOutcome> => {
      await countEvent(tx, { clientId, env, period: monthOf(now), delta: 1 });
      return { ok: true, reservation: { ...r, clientId, env, at, requestId } };
    };
    // The common charge (the key's bucket exists, needs no grant, regrant or trial cap, and has a
    // credit left) takes its credit in one statement instead of a read and a write: a round trip
    // less on PostgreSQL, where authentication and the charge must add at most 1 ms at p50 over
    // SQLite (docs/control-plane.md). Any other case changes nothing here and takes the full path.
    const mine = ownBucket(account, now);
    const own0 = { clientId, bucket: mine.bucket, period: mine.period, quota: mine.quota, capDue: mine.capDue ? 1 : 0 };
    if (tx.dialect === 'postgres') {
      // The same three writes as below in one statement: each is a round trip on PostgreSQL.
      const done = await tx.get(TAKE_OWN_AND_RECORD, { ...own0, at, requestId, env, month: monthOf(now) });
      if (done) return { ok: true, reservation: { bucket: mine.bucket, period: mine.period, packId: null, clientId, env, at, requestId } };
    }
    const fast = tx.dialect === 'postgres' ? undefined : await tx.get<{ remaining: number }>(TAKE_OWN, own0);
    if (fast) {
      await write(tx, { clientId, kind: 'charge', bucket: mine.bucket, period: mine.period, amount: -1, at, requestId });
      return taken({ bucket: mine.bucket, period: mine.period, packId: null });
    }
    const own = await currentBucket(tx, account, now);
    if (own.row.remaining > 0) {
      await addToBalance(tx, { clientId, bucket: own.bucket, period: own.period, delta: -1, grant: 0 });
      await write(tx, { clientId, kind: 'charge', bucket: own.bucket, period: own.period, amount: -1, at, requestId });
      return taken({ bucket: own.bucket, period: own.period, packId: null });
    }
    // Test keys never spend live credits: no packs, no overage.
    if (env === 'live') {
      await expireDuePacks(tx, clientId, now);
      const pack = await tx.get<{ id: string }>(NEXT_PACK, [clientId, at]);
      if (pack) {
        await tx.run(ADD_TO_PACK, [-1, pack.id]);
        await write(tx, { clientId, kind: 'charge', bucket: 'pack', period: monthOf(now), packId: pack.id, amount: -1, at, requestId });
        return taken({ bucket: 'pack', period: monthOf(now), packId: pack.id });
      }
      if (account.plan.overage && account.subscription === 'active') {
        const day = dayOf(now);
        await write(tx, { clientId, kind: 'overage', bucket: 'overage', period: day, amount: 1, at, requestId });
        return taken({ bucket: 'overage', period: day, packId: null });
      }
    }
    return { ok: false, reason: account.plan.code === 'free_trial' ? 'payment_required' : 'quota_exhausted' };
  }

  const charge = (r: ChargeRequest) => sql.transaction((tx) => chargeOne(tx, r.account, r.now, r.requestId));

  // A transaction's begin and commit (locks, the WAL append, a round trip each on PostgreSQL)
  // cost more than the four statements of a charge, and requests admitted in one event-loop
  // turn can share them. A charge that throws (never seen outside a broken database)
  // rolls the batch back, and each request is then charged in a transaction of its own, so it
  // alone gets the error.
  async function chargeMany(requests: readonly ChargeRequest[]): Promise<(ChargeOutcome | Error)[]> {
    if (requests.length === 1) return [await charge(requests[0]!)];
    try {
      return await sql.transaction(async (tx) => {
        const outcomes: ChargeOutcome[] = [];
        for (const r of requests) outcomes.push(await chargeOne(tx, r.account, r.now, r.requestId));
        return outcomes;
      });
    } catch {
      const outcomes: (ChargeOutcome | Error)[] = [];
      for (const r of requests) {
        try {
          outcomes.push(await charge(r));
        } catch (err) {
          outcomes.push(err instanceof Error ? err : new Error(String(err)));
        }
      }
      return outcomes;
    }
  }

  const refund = (r: Reservation) =>
    sql.transaction(async (tx) => {
      const { clientId, bucket, period, packId, at, requestId } = r;
      // Dated like the charge it cancels, so a day's overage line and a month's event
      // count net to zero for it even when the answer crossed midnight.
      if (bucket === 'overage') {
        await write(tx, { clientId, kind: 'refund', bucket, period, amount: -1, at, requestId });
      } else {
        await write(tx, { clientId, kind: 'refund', bucket, period, packId, amount: 1, at, requestId });
        if (bucket === 'pack') await tx.run(ADD_TO_PACK, [1, packId]);
        else await addToBalance(tx, { clientId, bucket, period, delta: 1, grant: 0 });
      }
      await countEvent(tx, { clientId, env: r.env, period: at.slice(0, 7), delta: -1 });
    });

  const touch = (account: Account, now: Date) =>
    sql.transaction(async (tx) => {
      await currentBucket(tx, account, now);
      if (account.env === 'live') await expireDuePacks(tx, account.clientId, now);
    });

  return {
    charge: (account, now, requestId) => charge({ account, now, requestId }),
    chargeMany: async (requests) => (requests.length === 0 ? [] : chargeMany(requests)),
    refund,
    touch,
    eventsThisMonth: async (clientId, env, now) =>
      (await sql.get<{ events: number }>(GET_EVENTS, [clientId, env, monthOf(now)]))?.events ?? 0,
  };
}
