import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createRateLimiter, type RateLimiter } from '../api/access/rate-limit.ts';
import type { Logger } from '../logger.ts';
import { clientNetwork } from './client-network.ts';

/**
 * Guessing and mail-bombing brakes of the account page, in sliding windows on Redis with the
 * API's own rate-limit script (one atomic round trip, shared by every API process). Like the
 * API's limit, a Redis that does not answer within a second lets the attempt through (logged):
 * argon2's cost still bounds guessing, and sign-in stays up. Addresses are kept in Redis only as
 * SHA-256 digests.
 *
 * A form that names an email address is counted per (email, client network) pair and per client
 * network, never per email alone: a window per email would let anyone who knows an address fill
 * it and lock its owner out from everywhere. An attacker's wrong passwords use up only the
 * attacker's own pair and network; the owner, on another network, has windows of their own.
 * Guessing one address from many networks at once is left to the password rules (15 characters
 * at least) and argon2's cost. A client network is an IPv4 address or an IPv6 /64
 * (client-network.ts), and the client address is the proxy's X-Forwarded-For only from the
 * proxies TRUST_PROXY names.
 */
export type ThrottledForm = 'signin' | 'reset' | 'signup' | 'resend';

interface Limit {
  perPair: number;
  perNetwork: number;
  windowMs: number;
}

const MINUTE = 60_000;
export const THROTTLE_LIMITS: Record<ThrottledForm, Limit> = {
  signin: { perPair: 10, perNetwork: 50, windowMs: 15 * MINUTE },
  reset: { perPair: 5, perNetwork: 20, windowMs: 60 * MINUTE },
  signup: { perPair: 5, perNetwork: 20, windowMs: 60 * MINUTE },
  resend: { perPair: 5, perNetwork: 20, windowMs: 60 * MINUTE },
};

/**
 * Posts of a mailed link (a reset's or a confirmation's new password), per client network. Each
 * link is 32 random bytes and is looked up before any hashing, so this bounds the lookups one
 * network can make, not a guess.
 */
export const LINK_LIMIT = { perNetwork: 20, windowMs: 15 * MINUTE } as const;

/**
 * Mails one address receives from the forms, from every network together. Past it a form still
 * answers as ever (the same page for every address) but sends nothing: a mailbox cannot be
 * flooded from many networks, and nobody is told anything about the address.
 */
export const MAIL_LIMIT = { perEmail: 10, windowMs: 60 * MINUTE } as const;

export type ThrottleDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface Throttle {
  /** Counts one attempt of `form` for the email from the client address, or says how long to wait. */
  attempt(form: ThrottledForm, email: string, address: string, attemptId: string): Promise<ThrottleDecision>;
  /** Counts one post of a mailed link from the client address. */
  link(address: string, attemptId: string): Promise<ThrottleDecision>;
  /** Counts one mail to the email; false when the address has had its share this hour. */
  mail(email: string, attemptId: string): Promise<boolean>;
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);

export function createThrottle(redis: Redis, options: { keyPrefix: string; logger: Logger }): Throttle {
  const limiters = new Map<string, RateLimiter>();
  const limiter = (name: string, windowMs: number) => {
    let found = limiters.get(name);
    if (!found) {
      found = createRateLimiter(redis, { keyPrefix: `${options.keyPrefix}-acct-${name}`, logger: options.logger, windowMs });
      limiters.set(name, found);
    }
    return found;
  };
  const wait = (resetInMs: number): ThrottleDecision => ({ allowed: false, retryAfterSeconds: Math.ceil(resetInMs / 1000) });
  return {
    async attempt(form, email, address, attemptId) {
      const limit = THROTTLE_LIMITS[form];
      const network = clientNetwork(address);
      // The network first: a client over its network's limit does not use up its pairs' windows.
      const byNetwork = await limiter(`${form}-network`, limit.windowMs).hit(digest(network), limit.perNetwork, attemptId);
      if (!byNetwork.allowed) return wait(byNetwork.resetInMs);
      const byPair = await limiter(`${form}-pair`, limit.windowMs).hit(digest(`${email}\n${network}`), limit.perPair, attemptId);
      if (!byPair.allowed) return wait(byPair.resetInMs);
      return { allowed: true };
    },
    async link(address, attemptId) {
      const byNetwork = await limiter('link-network', LINK_LIMIT.windowMs).hit(
        digest(clientNetwork(address)),
        LINK_LIMIT.perNetwork,
        attemptId,
      );
      return byNetwork.allowed ? { allowed: true } : wait(byNetwork.resetInMs);
    },
    async mail(email, attemptId) {
      return (await limiter('mail-email', MAIL_LIMIT.windowMs).hit(digest(email), MAIL_LIMIT.perEmail, attemptId)).allowed;
    },
  };
}
