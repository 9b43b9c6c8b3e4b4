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
    return o.memoryCost !== PASSWORD_COSTS.memoryCost || o.timeCost !== PASSWORD_COSTS.timeCost || o.parallelism !== PASSWORD_COSTS.parallelism;
  } catch {
    return true;
  }
}

/**
 * A hash of a password nobody knows, checked when a sign-in names no user, so that an unknown
 * address costs the same argon2 work as a known one and the answer's timing says nothing.
 */
export function createDummyHash(): Promise<string> {
  return hashPassword(randomBytes(24).toString('base64url'));
}
