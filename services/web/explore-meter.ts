import { randomUUID } from 'node:crypto';
import { retryAfterSeconds } from '../api/access/headers.ts';
import type { RateLimiter } from '../api/access/rate-limit.ts';
import { clientAccount } from '../control/accounts/accounts.ts';
import type { Account, Ledger, Reservation } from '../control/billing/ledger.ts';
import type { Plan } from '../control/billing/plans.ts';
import type { PageContext, SignedIn } from './context.ts';

/**
 * The explorer's reads are the API's reads, so each costs what the same request to the API
 * costs: one credit, taken before it runs from the client's live bucket by the API's own ledger,
 * after a slot of the plan's per-minute window (the same Redis window its keys use), and given
 * back when the read fails (the API keeps a credit only for a success). A plan without the REST
 * API gets no explorer either: it would be the REST API without a key.
 */

export type MeterRefusalReason = 'rest_disabled' | 'rate_limited' | 'payment_required' | 'quota_exhausted';

/** Why a read was not run; the page says it in words (pages/explore.ts). */
export class MeterRefusal extends Error {
  override name = 'MeterRefusal';
  constructor(
    readonly reason: MeterRefusalReason,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(reason);
  }
}

export interface Meter {
  plan: Plan;
  /** Runs one API read, charged as the API charges it; a refusal throws MeterRefusal before the read runs. */
  read<T>(run: () => Promise<T>): Promise<T>;
  /** Credits kept so far (successful reads). */
  charged(): number;
}

export interface MeterDeps {
  sql: PageContext['sql'];
  ledger: Ledger;
  rateLimiter: RateLimiter;
  clock: () => Date;
}

export async function openMeter(deps: MeterDeps, signed: SignedIn): Promise<Meter> {
  const { plan, account } = await clientAccount(deps.sql, signed.client, 'live');
  let kept = 0;
  return {
    plan,
    charged: () => kept,
    async read(run) {
      const reservation = await admit(deps, plan, account);
      try {
        const value = await run();
        kept += 1;
        return value;
      } catch (err) {
        await deps.ledger.refund(reservation);
        throw err;
      }
    },
  };
}

async function admit(deps: MeterDeps, plan: Plan, account: Account): Promise<Reservation> {
  if (!plan.rest) throw new MeterRefusal('rest_disabled');
  const requestId = `web-${randomUUID()}`;
  const window = await deps.rateLimiter.hit(account.clientId, plan.rpm, requestId);
  if (!window.allowed) throw new MeterRefusal('rate_limited', retryAfterSeconds(window));
  const outcome = await deps.ledger.charge(account, deps.clock(), requestId);
  if (!outcome.ok) throw new MeterRefusal(outcome.reason);
  return outcome.reservation;
}
