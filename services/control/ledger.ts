import type { Database } from 'better-sqlite3';
import type { KeyEnv } from './api-keys.ts';
import type { SubscriptionStatus } from './clients.ts';
import { dayOf, monthOf, TRIAL_FULL_ACCESS_MS } from './periods.ts';
import { type Plan, testKeyQuota } from './plans.ts';

/**
 * The credit ledger and the one transaction that charges a request (spec 8.2-8.5).
 * Spending order: the bucket of the key (monthly grant, the free trial's one-time
 * grant, or the test keys' own bucket), then pack credits soonest-expiring first,
 * then overage for active paid subscriptions; otherwise the request is refused.
 * Every move is a ledger row written in the same BEGIN IMMEDIATE transaction as the
 * balance it changes, so two API processes on one file never charge a credit twice.
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

export type ChargeOutcome =
  | { ok: true; reservation: Reservation }
  | { ok: false; reason: 'payment_required' | 'quota_exhausted' };

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
  charge(account: Account, now: Date, requestId: string): ChargeOutcome;
  /**
   * The charges of several requests in one write transaction, in the order given: each
   * outcome is what charge() would have said had they run one after another. A charge
   * that throws leaves its error in its slot; the others are still charged.
   */
  chargeMany(requests: readonly ChargeRequest[]): (ChargeOutcome | Error)[];
  /** Gives back what charge took (the request did not succeed). */
  refund(reservation: Reservation): void;
  /** Brings the key's bucket up to date (grant, plan change, trial cap) without charging. */
  touch(account: Account, now: Date): void;
  /** Charged requests of the client's live or test keys in the month of `now`. */
  eventsThisMonth(clientId: string, env: KeyEnv, now: Date): number;
}

export function createLedger(db: Database): Ledger {
  const getBalance = db.prepare<[string, string, string], BalanceRow>(
    'SELECT granted, remaining, capped_at FROM credit_balances WHERE client_id = ? AND bucket = ? AND period = ?',
  );
  const insertBalance = db.prepare(
    'INSERT INTO credit_balances (client_id, bucket, period, granted, remaining) VALUES (?, ?, ?, ?, ?)',
  );
  const addToBalance = db.prepare(
    'UPDATE credit_balances SET remaining = remaining + @delta, granted = granted + @grant WHERE client_id = @clientId AND bucket = @bucket AND period = @period',
  );
  const markCapped = db.prepare(
    'UPDATE credit_balances SET remaining = ?, capped_at = ? WHERE client_id = ? AND bucket = ? AND period = ?',
  );
  const insertLedger = db.prepare(
    `INSERT INTO credit_ledger (client_id, kind, bucket, period, pack_id, amount, at, request_id)
     VALUES (@clientId, @kind, @bucket, @period, @packId, @amount, @at, @requestId)`,
  );
  const dueExpiries = db.prepare<[string, string], { id: string; remaining: number; expires_at: string }>(
    'SELECT id, remaining, expires_at FROM credit_packs WHERE client_id = ? AND expired_at IS NULL AND expires_at <= ?',
  );
  const expirePack = db.prepare('UPDATE credit_packs SET remaining = 0, expired_at = ? WHERE id = ?');
  const nextPack = db.prepare<[string, string], { id: string }>(
    `SELECT id FROM credit_packs WHERE client_id = ? AND expired_at IS NULL AND remaining > 0 AND expires_at > ?
     ORDER BY expires_at, id LIMIT 1`,
  );
  const addToPack = db.prepare('UPDATE credit_packs SET remaining = remaining + ? WHERE id = ?');
  const countEvent = db.prepare(
    `INSERT INTO usage_counts (client_id, env, period, events) VALUES (@clientId, @env, @period, @delta)
     ON CONFLICT (client_id, env, period) DO UPDATE SET events = events + @delta`,
  );
  const getEvents = db.prepare<[string, string, string], { events: number }>(
    'SELECT events FROM usage_counts WHERE client_id = ? AND env = ? AND period = ?',
  );

  type Entry = { clientId: string; kind: string; bucket: BucketName; period: string; packId?: string | null; amount: number; at: string; requestId?: string | null };
  const write = (e: Entry) => insertLedger.run({ packId: null, requestId: null, ...e });

  /** The key's own bucket, created (granted) on first use and regranted when the plan's number changed. */
  function currentBucket(account: Account, now: Date): { bucket: 'monthly' | 'test' | 'trial'; period: string; row: BalanceRow } {
    const at = now.toISOString();
    const { clientId, plan } = account;
    if (account.env === 'live' && plan.code === 'free_trial') {
      // The trial's 500 is granted once, dated at signup.
      let row = getBalance.get(clientId, 'trial', 'signup');
      if (!row) {
        insertBalance.run(clientId, 'trial', 'signup', plan.monthlyCredits, plan.monthlyCredits);
        write({ clientId, kind: 'grant', bucket: 'trial', period: 'signup', amount: plan.monthlyCredits, at: account.createdAt });
        row = { granted: plan.monthlyCredits, remaining: plan.monthlyCredits, capped_at: null };
      }
      if (row.capped_at === null && now.getTime() - Date.parse(account.createdAt) > TRIAL_FULL_ACCESS_MS) {
        const capped = Math.min(Math.max(row.remaining, 0), TRIAL_CAP);
        // Written once, even when nothing is taken away, so the ledger shows when the cap applied.
        write({ clientId, kind: 'free_trial_expired_cap', bucket: 'trial', period: 'signup', amount: capped - row.remaining, at });
        markCapped.run(capped, at, clientId, 'trial', 'signup');
        row = { ...row, remaining: capped, capped_at: at };
      }
      return { bucket: 'trial', period: 'signup', row };
    }
    const bucket = account.env === 'test' ? 'test' : 'monthly';
    const quota = account.env === 'test' ? testKeyQuota(plan.monthlyCredits) : plan.monthlyCredits;
    const period = monthOf(now);
    let row = getBalance.get(clientId, bucket, period);
    if (!row) {
      insertBalance.run(clientId, bucket, period, quota, quota);
      write({ clientId, kind: 'grant', bucket, period, amount: quota, at });
      row = { granted: quota, remaining: quota, capped_at: null };
    } else if (row.granted !== quota) {
      // The operator changed the plan's (or the contract's) number this month: the grant follows it.
      const delta = quota - row.granted;
      write({ clientId, kind: 'grant_adjustment', bucket, period, amount: delta, at });
      addToBalance.run({ clientId, bucket, period, delta, grant: delta });
      row = { ...row, granted: quota, remaining: row.remaining + delta };
    }
    return { bucket, period, row };
  }

  function expireDuePacks(clientId: string, now: Date): void {
    const at = now.toISOString();
    for (const pack of dueExpiries.all(clientId, at)) {
      write({ clientId, kind: 'pack_expiry', bucket: 'pack', period: pack.expires_at.slice(0, 7), packId: pack.id, amount: -pack.remaining, at });
      expirePack.run(at, pack.id);
    }
  }

  function chargeOne(account: Account, now: Date, requestId: string): ChargeOutcome {
    const at = now.toISOString();
    const { clientId, env } = account;
    const own = currentBucket(account, now);
    const taken = (r: Omit<Reservation, 'clientId' | 'env' | 'at' | 'requestId'>): ChargeOutcome => {
      countEvent.run({ clientId, env, period: monthOf(now), delta: 1 });
      return { ok: true, reservation: { ...r, clientId, env, at, requestId } };
    };
    if (own.row.remaining > 0) {
      addToBalance.run({ clientId, bucket: own.bucket, period: own.period, delta: -1, grant: 0 });
      write({ clientId, kind: 'charge', bucket: own.bucket, period: own.period, amount: -1, at, requestId });
      return taken({ bucket: own.bucket, period: own.period, packId: null });
    }
    // Test keys never spend live credits: no packs, no overage.
    if (env === 'live') {
      expireDuePacks(clientId, now);
      const pack = nextPack.get(clientId, at);
      if (pack) {
        addToPack.run(-1, pack.id);
        write({ clientId, kind: 'charge', bucket: 'pack', period: monthOf(now), packId: pack.id, amount: -1, at, requestId });
        return taken({ bucket: 'pack', period: monthOf(now), packId: pack.id });
      }
      if (account.plan.overage && account.subscription === 'active') {
        const day = dayOf(now);
        write({ clientId, kind: 'overage', bucket: 'overage', period: day, amount: 1, at, requestId });
        return taken({ bucket: 'overage', period: day, packId: null });
      }
    }
    return { ok: false, reason: account.plan.code === 'free_trial' ? 'payment_required' : 'quota_exhausted' };
  }

  const charge = db.transaction(chargeOne);
  // Issue 19 item 4: a transaction's BEGIN IMMEDIATE and commit (locks, the WAL append) cost
  // more than the four statements of a charge, and requests admitted in one event-loop turn can
  // share them. A charge that throws (never seen outside a broken database) rolls the batch back,
  // and each request is then charged in a transaction of its own, so it alone gets the error.
  const chargeAll = db.transaction((requests: readonly ChargeRequest[]) => requests.map((r) => chargeOne(r.account, r.now, r.requestId)));
  function chargeMany(requests: readonly ChargeRequest[]): (ChargeOutcome | Error)[] {
    if (requests.length === 1) return [charge.immediate(requests[0]!.account, requests[0]!.now, requests[0]!.requestId)];
    try {
      return chargeAll.immediate(requests);
    } catch {
      return requests.map((r) => {
        try {
          return charge.immediate(r.account, r.now, r.requestId);
        } catch (err) {
          return err instanceof Error ? err : new Error(String(err));
        }
      });
    }
  }

  const refund = db.transaction((r: Reservation) => {
    const { clientId, bucket, period, packId, at, requestId } = r;
    // Dated like the charge it cancels, so a day's overage line and a month's event
    // count net to zero for it even when the answer crossed midnight.
    if (bucket === 'overage') {
      write({ clientId, kind: 'refund', bucket, period, amount: -1, at, requestId });
    } else {
      write({ clientId, kind: 'refund', bucket, period, packId, amount: 1, at, requestId });
      if (bucket === 'pack') addToPack.run(1, packId);
      else addToBalance.run({ clientId, bucket, period, delta: 1, grant: 0 });
    }
    countEvent.run({ clientId, env: r.env, period: at.slice(0, 7), delta: -1 });
  });

  const touch = db.transaction((account: Account, now: Date) => {
    currentBucket(account, now);
    if (account.env === 'live') expireDuePacks(account.clientId, now);
  });

  return {
    charge: (account, now, requestId) => charge.immediate(account, now, requestId),
    chargeMany: (requests) => (requests.length === 0 ? [] : chargeMany(requests)),
    refund: (r) => refund.immediate(r),
    touch: (account, now) => touch.immediate(account, now),
    eventsThisMonth: (clientId, env, now) => getEvents.get(clientId, env, monthOf(now))?.events ?? 0,
  };
}
