import { randomBytes } from 'node:crypto';
import { hash, parseOptions, verify } from '@node-rs/argon2';

/**
 * Password hashes: argon2id (the library's default algorithm) at the costs the OWASP Password
 * Storage Cheat Sheet recommends as its first choice: 19 MiB of memory, 2 passes, 1 lane.
 * About 30 ms a hash on our 2-core machine, run off the event loop by the native library.
 */
export const PASSWORD_COSTS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PASSWORD_COSTS);
}

/** False for a wrong password and for a stored value that is not an argon2 hash at all. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash made at older costs is replaced at the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  try {
    const o = parseOptions(stored);
    return (
      o.memoryCost !== PASSWORD_COSTS.memoryCost || o.timeCost !== PASSWORD_COSTS.timeCost || o.parallelism !== PASSWORD_COSTS.parallelism
    );
  } catch {
    return true;
  }
}

/** Whether a stored value is an argon2 hash at all (a user who has not chosen a password has none). */
export function isPasswordHash(stored: string): boolean {
  return stored.startsWith('$argon2');
}

/**
 * What a user who has not chosen a password yet stores: sign-up takes no password (the
 * confirmation link's holder chooses it), and no password matches this.
 */
export const NO_PASSWORD = '';

/**
 * The argon2 work of the account page, handed to it as a value: tests count the calls (an
 * anonymous request must not cost a hash), and the page never calls the library directly.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
}

export const argon2Hasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

/**
 * A hash of a password nobody knows, checked when a sign-in names no user (or one who may not
 * sign in), so that every refused sign-in costs the same argon2 work and the answer's timing
 * says nothing.
 */
export function createDummyHash(hasher: PasswordHasher = argon2Hasher): Promise<string> {
  return hasher.hash(randomBytes(24).toString('base64url'));
}
