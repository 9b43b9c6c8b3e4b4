import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRateLimiter, type RateLimiter } from '../api/access/rate-limit.ts';
import type { Logger } from '../logger.ts';

/**
 * Guessing and mail-bombing brakes of the account page (issue 21): each form that checks a
 * password or sends mail is limited per email address and per client address, in sliding
 * windows on Redis with the API's own rate-limit script (one atomic round trip, shared by every
 * API process). Like the API's limit, a Redis that does not answer within a second lets the
 * attempt through (logged): argon2's cost still bounds guessing, and sign-in stays up.
 * Addresses are kept in Redis only as SHA-256 digests.
 */
export type ThrottledForm = 'signin' | 'reset' | 'signup' | 'resend';

interface Limit {
  perEmail: number;
  perAddress: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const THROTTLE_LIMITS: Record<ThrottledForm, Limit> = {
  signin: { perEmail: 10, perAddress: 50, windowMs: 15 * MINUTE },
  reset: { perEmail: 5, perAddress: 20, windowMs: 60 * MINUTE },
  signup: { perEmail: 5, perAddress: 20, windowMs: 60 * MINUTE },
  resend: { perEmail: 5, perAddress: 20, windowMs: 60 * MINUTE },
};

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface Throttle {
  /** Counts one attempt of `form` for the email and the client address, or says how long to wait. */
  attempt(form: ThrottledForm, email: string, address: string, attemptId: string): Promise<ThrottleDecision>;
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

export function createThrottle(redis: Redis, options: { keyPrefix: string; logger: Logger }): Throttle {
  const limiters = new Map<string, RateLimiter>();
  const limiter = (form: ThrottledForm, scope: 'email' | 'address') => {
    const name = `${form}-${scope}`;
    let found = limiters.get(name);
    if (!found) {
      found = createRateLimiter(redis, { keyPrefix: `${options.keyPrefix}-acct-${name}`, logger: options.logger, windowMs: THROTTLE_LIMITS[form].windowMs });
      limiters.set(name, found);
    }
    return found;
  };
  return {
    async attempt(form, email, address, attemptId) {
      const limit = THROTTLE_LIMITS[form];
      // The address first: a client over its address limit does not use up a victim's email window.
      const byAddress = await limiter(form, 'address').hit(digest(address), limit.perAddress, attemptId);
      if (!byAddress.allowed) return { allowed: false, retryAfterSeconds: Math.ceil(byAddress.resetInMs / 1000) };
      const byEmail = await limiter(form, 'email').hit(digest(email), limit.perEmail, attemptId);
      if (!byEmail.allowed) return { allowed: false, retryAfterSeconds: Math.ceil(byEmail.resetInMs / 1000) };
      return { allowed: true };
    },
  };
}
