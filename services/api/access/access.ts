import type { Database } from 'better-sqlite3';
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger.ts';
import { createLedger, type Ledger, type Reservation } from '../../control/ledger.ts';
import { nextMonthStart, secondsToNextMonth } from '../../control/periods.ts';
import { type Authenticate, createAuthenticate, type Principal } from './authenticate.ts';
import { FeatureDisabledError, PaymentRequiredError, RateLimitedError } from './errors.ts';
import { rateHeaders, retryAfterSeconds } from './headers.ts';
import { createRateLimiter, type RateLimiter } from './rate-limit.ts';

/**
 * The access layer as plain functions, for any transport: REST registers them once
 * on the /api/v1 scope (register.ts), the MCP endpoint calls the same two.
 *   authenticate(headers)            -> Principal, or the one 401
 *   admit(principal, request, id)    -> rate-limit headers (+ the credit taken), or a
 *                                       typed 429 / 403 / 402 carrying its headers
 *   mayOverlap(principal, request)   -> whether the read may start before admit answers
 * Order: the per-minute window first (every authenticated request takes a slot, so
 * even 403s are paced), then plan features, then the credit.
 */

export interface AdmitRequest {
  surface: 'rest' | 'mcp';
  /** The request asks for CSV (services/api/reply.ts isCsvRequest). */
  csv: boolean;
  /** False for requests that cost nothing (GET /account/usage). */
  charge: boolean;
}

export interface Admission {
  headers: Record<string, string>;
  /** The credit taken; give it back with refund() if the request does not succeed. */
  reservation: Reservation | null;
}

export interface Access {
  authenticate: Authenticate;
  admit(principal: Principal, request: AdmitRequest, requestId: string, now?: Date): Promise<Admission>;
  /**
   * True when the request may start its read while admit() is still waiting for the
   * window (the answer itself still waits for admit; register.ts). Claims one of the
   * client's spare slots when it says yes.
   */
  mayOverlap(principal: Principal, request: AdmitRequest): boolean;
  refund(reservation: Reservation): void;
  ledger: Ledger;
  rateLimiter: RateLimiter;
}

export interface AccessDeps {
  db: Database;
  redis: Redis;
  logger: Logger;
  config: { KEY_HASH_SECRET: string; KEY_PREFIX: string; INDEX_PREFIX: string };
}

export function createAccess(deps: AccessDeps): Access {
  const authenticate = createAuthenticate(deps.db, { secret: deps.config.KEY_HASH_SECRET, prefix: deps.config.KEY_PREFIX });
  const ledger = createLedger(deps.db);
  const rateLimiter = createRateLimiter(deps.redis, { keyPrefix: deps.config.INDEX_PREFIX, logger: deps.logger });
  const room = createRoom();

  async function admit(principal: Principal, request: AdmitRequest, requestId: string, now?: Date): Promise<Admission> {
    const { plan } = principal;
    const window = await rateLimiter.hit(principal.client.id, plan.rpm, requestId);
    const headers = rateHeaders(window);
    if (!window.allowed) throw new RateLimitedError(retryAfterSeconds(window), headers);
    const missing = missingFeature(plan, request);
    if (missing) throw new FeatureDisabledError(missing, plan.code, headers);
    const at = now ?? new Date();
    if (!request.charge) {
      // Still brings the bucket up to date, so the trial cap lands on the first call after day 7 whatever it is.
      ledger.touch(principal.account, at);
      return { headers, reservation: null };
    }
    const outcome = ledger.charge(principal.account, at, requestId);
    if (outcome.ok) {
      if (window.checked) room.saw(principal.client.id, window.remaining);
      return { headers, reservation: outcome.reservation };
    }
    if (outcome.reason === 'payment_required') throw new PaymentRequiredError(headers);
    const wait = secondsToNextMonth(at);
    throw new RateLimitedError(wait, headers, { reason: 'monthly_quota_exhausted', reset_date: nextMonthStart(at).toISOString() });
  }

  return {
    authenticate,
    ledger,
    rateLimiter,
    refund: (reservation) => ledger.refund(reservation),
    async admit(principal, request, requestId, now) {
      try {
        return await admit(principal, request, requestId, now);
      } catch (err) {
        room.forget(principal.client.id);
        throw err;
      }
    },
    mayOverlap(principal, request) {
      // A request its plan refuses gets no read at all.
      return missingFeature(principal.plan, request) === null && room.claim(principal.client.id);
    },
  };
}

/** The plan feature a request needs and its plan lacks, first the surface, then CSV. */
function missingFeature(plan: Principal['plan'], request: AdmitRequest): 'rest_disabled' | 'mcp_disabled' | 'csv_disabled' | null {
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
