import type { Sql } from '../../control/db/sql.ts';
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger.ts';
import { type ChargeOutcome, type ChargeRequest, createLedger, type Ledger, type Reservation } from '../../control/billing/ledger.ts';
import { nextMonthStart, secondsToNextMonth } from '../../control/billing/periods.ts';
import { type Authenticate, createAuthenticate, type Principal } from './authenticate.ts';
import { FeatureDisabledError, PaymentRequiredError, RateLimitedError, TooManyAnalyticsError, TooManyConcurrentError } from './errors.ts';
import { rateHeaders, retryAfterSeconds } from './headers.ts';
import { createInFlight } from './in-flight.ts';
import { createRateLimiter, type RateDecision, type RateLimiter } from './rate-limit.ts';
import { createTurnBatch } from './turn-batch.ts';

/**
 * The access layer as plain functions, the one admission of both surfaces: REST
 * registers them once on the /api/v1 scope (register.ts), the MCP endpoint calls
 * the same ones from its own hooks (mcp/route.ts).
 *   authenticate(headers)            -> Principal, or the one 401
 *   hold(principal, response)        -> counts the request in flight until its response
 *                                       closes, or a 429 when the client has too many
 *   holdAnalytic(principal, response)-> the same for analytic requests, with their own,
 *                                       smaller share (CLIENT_MAX_ANALYTICS)
 *   pace(principal, request, id)     -> the per-minute window, then the plan's features:
 *                                       rate-limit headers, or a typed 429 / 403
 *   charge(principal, paced, ...)    -> the credit: the Admission, or a typed 402 / 429
 *   admit(principal, request, id)    -> pace then charge, for a request that knows its cost
 *                                       before its body is read (every REST request)
 *   settle(request, succeeded)       -> the one refund path: a credit is kept only by a success
 *   mayOverlap(principal, request)   -> whether the read may start before admit answers
 * Order: the per-minute window first (every authenticated request takes a slot, so
 * even 403s are paced), then plan features, then the credit. MCP paces in onRequest,
 * before its body is read, and charges once the body says whether it is a tools/call.
 * admit() charges the requests whose windows answered in the same turn in one ledger
 * transaction (turn-batch.ts); each is still charged before its own answer.
 */

export interface AdmitRequest {
  surface: 'rest' | 'mcp';
  /** The request asks for CSV (services/api/reply.ts isCsvRequest). */
  csv: boolean;
  /** False for requests that cost nothing (GET /account/usage). */
  charge: boolean;
}

/** What the checks that need no body said: the window's headers (the plan's features passed). */
export interface Paced {
  headers: Record<string, string>;
  window: RateDecision;
}

/** An admitted request: the headers its answer carries and the credit it took. */
export interface Admission {
  headers: Record<string, string>;
  /** The credit taken; settle() gives it back if the request does not succeed. */
  reservation: Reservation | null;
}

/** Where a request keeps its credit until its answer settles it (a Fastify request on both surfaces). */
export interface Settles {
  reservation: Reservation | null;
}

/** The part of a response hold() watches: it ends the request's time in flight. */
export interface Closes {
  once(event: 'close', listener: () => void): unknown;
}

export interface Access {
  authenticate: Authenticate;
  /** Counts the request in its client's requests in flight until `response` closes; TooManyConcurrentError when full. */
  hold(principal: Principal, response: Closes): void;
  /** Counts an analytic request until `response` closes; TooManyAnalyticsError when the client has its most. */
  holdAnalytic(principal: Principal, response: Closes): void;
  pace(principal: Principal, request: Omit<AdmitRequest, 'charge'>, requestId: string): Promise<Paced>;
  charge(principal: Principal, paced: Paced, charge: boolean, requestId: string, now?: Date): Promise<Admission>;
  admit(principal: Principal, request: AdmitRequest, requestId: string, now?: Date): Promise<Admission>;
  /** Keeps the request's credit if it succeeded, gives it back otherwise; called once the answer is known (onSend). */
  settle(request: Settles, succeeded: boolean): Promise<void>;
  /**
   * True when the request may start its read while admit() is still waiting for the
   * window (the answer itself still waits for admit; register.ts). Claims one of the
   * client's spare slots when it says yes.
   */
  mayOverlap(principal: Principal, request: AdmitRequest): boolean;
  ledger: Ledger;
  rateLimiter: RateLimiter;
}

export interface AccessDeps {
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  redis: Redis;
  logger: Logger;
  config: {
    KEY_HASH_SECRET: string;
    KEY_PREFIX: string;
    INDEX_PREFIX: string;
    CLIENT_MAX_CONCURRENT: number;
    CLIENT_MAX_ANALYTICS: number;
    RATE_LIMIT_WINDOW_MS: number;
  };
}

export function createAccess(deps: AccessDeps): Access {
  const authenticate = createAuthenticate(deps.sql, { secret: deps.config.KEY_HASH_SECRET, prefix: deps.config.KEY_PREFIX });
  const ledger = createLedger(deps.sql);
  const rateLimiter = createRateLimiter(deps.redis, {
    keyPrefix: deps.config.INDEX_PREFIX,
    logger: deps.logger,
    windowMs: deps.config.RATE_LIMIT_WINDOW_MS,
  });
  const room = createRoom();
  const inFlight = createInFlight(deps.config.CLIENT_MAX_CONCURRENT);
  const analyticsInFlight = createInFlight(deps.config.CLIENT_MAX_ANALYTICS);
  const chargeInTurn = createTurnBatch((requests: ChargeRequest[]) => ledger.chargeMany(requests));

  async function pace(principal: Principal, request: Omit<AdmitRequest, 'charge'>, requestId: string): Promise<Paced> {
    const { plan } = principal;
    const window = await rateLimiter.hit(principal.client.id, plan.rpm, requestId);
    const headers = rateHeaders(window);
    if (!window.allowed) throw new RateLimitedError(retryAfterSeconds(window), headers);
    const missing = missingFeature(plan, request);
    if (missing) throw new FeatureDisabledError(missing, plan.code, headers);
    return { headers, window };
  }

  async function charge(principal: Principal, paced: Paced, chargeable: boolean, requestId: string, now?: Date): Promise<Admission> {
    const at = now ?? new Date();
    if (!chargeable) return untouched(principal, paced, at);
    return charged(principal, paced, await ledger.charge(principal.account, at, requestId), at);
  }

  /** charge() with the credit taken in the turn's one ledger transaction. */
  async function chargeBatched(principal: Principal, paced: Paced, chargeable: boolean, requestId: string, now?: Date): Promise<Admission> {
    const at = now ?? new Date();
    if (!chargeable) return untouched(principal, paced, at);
    return charged(principal, paced, await chargeInTurn({ account: principal.account, now: at, requestId }), at);
  }

  async function untouched(principal: Principal, { headers }: Paced, at: Date): Promise<Admission> {
    // Still brings the bucket up to date, so the trial cap lands on the first call after day 7 whatever it is.
    await ledger.touch(principal.account, at);
    return { headers, reservation: null };
  }

  function charged(principal: Principal, { headers, window }: Paced, outcome: ChargeOutcome, at: Date): Admission {
    if (outcome.ok) {
      if (window.checked) room.saw(principal.client.id, window.remaining);
      return { headers, reservation: outcome.reservation };
    }
    if (outcome.reason === 'payment_required') throw new PaymentRequiredError(headers);
    const wait = secondsToNextMonth(at);
    throw new RateLimitedError(wait, headers, { reason: 'monthly_quota_exhausted', reset_date: nextMonthStart(at).toISOString() });
  }

  /** A refused client is forgotten by the room, so its next request waits for its admission. */
  function refused(principal: Principal, err: unknown): never {
    room.forget(principal.client.id);
    throw err;
  }

  return {
    authenticate,
    ledger,
    rateLimiter,
    hold(principal, response) {
      const clientId = principal.client.id;
      if (!inFlight.enter(clientId)) throw new TooManyConcurrentError(inFlight.limit);
      response.once('close', () => inFlight.leave(clientId));
    },
    holdAnalytic(principal, response) {
      const clientId = principal.client.id;
      if (!analyticsInFlight.enter(clientId)) throw new TooManyAnalyticsError(analyticsInFlight.limit);
      response.once('close', () => analyticsInFlight.leave(clientId));
    },
    async pace(principal, request, requestId) {
      try {
        return await pace(principal, request, requestId);
      } catch (err) {
        return refused(principal, err);
      }
    },
    async charge(principal, paced, chargeable, requestId, now) {
      try {
        return await charge(principal, paced, chargeable, requestId, now);
      } catch (err) {
        return refused(principal, err);
      }
    },
    async admit(principal, request, requestId, now) {
      try {
        return await chargeBatched(principal, await pace(principal, request, requestId), request.charge, requestId, now);
      } catch (err) {
        return refused(principal, err);
      }
    },
    async settle(request, succeeded) {
      const reservation = request.reservation;
      if (!reservation || succeeded) return;
      request.reservation = null;
      await ledger.refund(reservation);
    },
    mayOverlap(principal, request) {
      // A request its plan refuses gets no read at all.
      return missingFeature(principal.plan, request) === null && room.claim(principal.client.id);
    },
  };
}

/** The plan feature a request needs and its plan lacks, first the surface, then CSV. */
function missingFeature(
  plan: Principal['plan'],
  request: Omit<AdmitRequest, 'charge'>,
): 'rest_disabled' | 'mcp_disabled' | 'csv_disabled' | null {
  if (request.surface === 'rest' && !plan.rest) return 'rest_disabled';
  if (request.surface === 'mcp' && !plan.mcp) return 'mcp_disabled';
  if (request.csv && !plan.csv) return 'csv_disabled';
  return null;
}

/** How long a window's answer is trusted to predict the next one. */
export const ROOM_TRUST_MS = 5_000;
/** Clients remembered per process; the least recently admitted is forgotten first. */
const ROOM_CLIENTS = 10_000;

/**
 * What this process last learned of each client's window: the slots left at its
 * last charged admission, less the reads started since on that promise. A client
 * seen moments ago with slots to spare may have its read run beside the Redis
 * round trip; a client never seen, near its limit, refused, or out of credit waits
 * for the answer first, so a refused request almost never costs the engine a read.
 * Only a guess about cost: every request is still admitted by Redis and the ledger.
 */
function createRoom() {
  const seen = new Map<string, { at: number; slots: number }>();
  return {
    saw(clientId: string, remaining: number) {
      seen.delete(clientId);
      seen.set(clientId, { at: Date.now(), slots: remaining });
      if (seen.size > ROOM_CLIENTS) seen.delete(seen.keys().next().value!);
    },
    forget(clientId: string) {
      seen.delete(clientId);
    },
    claim(clientId: string): boolean {
      const last = seen.get(clientId);
      if (!last || Date.now() - last.at > ROOM_TRUST_MS || last.slots < 2) return false;
      last.slots -= 1;
      return true;
    },
  };
}
