import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { type Config, WEBHOOK_KEY_FILE } from '../config.ts';

/**
 * Where `npm start` runs, for the commands of another terminal. Beside a
 * running `npm start`, `taxcert status` failed with `connect ECONNREFUSED 127.0.0.1:9200` when
 * the stack's engine was elsewhere, and created data/taxcert.db and key-hash-secret on the way.
 * Now `npm start` writes data/stack.json (the checkout's default data folder, the one relative
 * path every terminal of the checkout shares), and the operator commands fill the variables it
 * records into their environment, the way a .env file would: a variable that is set wins.
 */
export const STACK_FILE = join('data', 'stack.json');

/** The variables a command needs to reach the stack; none of them is a secret. */
const StackVariables = z.object({
  OPENSEARCH_URL: z.string().min(1),
  DATABASE_PATH: z.string().min(1),
  /** Set when the stack's control plane is PostgreSQL; the file then holds nothing. */
  DATABASE_URL: z.string().min(1).optional(),
  INDEX_PREFIX: z.string().min(1),
  REDIS_URL: z.string().min(1),
  KEY_PREFIX: z.string().min(1),
  /**
   * The stack's mode: production is the default, so a command beside a development stack takes
   * development from here (its generated secrets live beside the database) instead of refusing.
   */
  NODE_ENV: z.enum(['development', 'test', 'production']).optional(),
});

export const StackRecord = z.object({
  pid: z.number().int().positive(),
  startedAt: z.string(),
  env: StackVariables,
  /**
   * The stack hashes keys with a KEY_HASH_SECRET from its environment, not the key-hash-secret
   * file beside its database: the secret itself is never written here, so a command must be given it.
   */
  keyHashSecretGiven: z.boolean(),
  /** The same for WEBHOOK_SECRET_KEY: endpoints made by another terminal must be sealed under the stack's key. */
  webhookSecretKeyGiven: z.boolean().optional(),
});
export type StackRecord = z.infer<typeof StackRecord>;

/**
 * Writes the record atomically (a reader sees the old file or the new one, never half) and
 * returns how to remove it. Removal checks the pid: a second `npm start` of the checkout took
 * the record over, and the first one's shutdown must not take it away.
 */
export function recordStack(config: Config, file = resolve(STACK_FILE)): { remove(): void } {
  const record: StackRecord = {
    pid: process.pid,
    startedAt: new Date().toISOString(),
    env: {
      OPENSEARCH_URL: config.OPENSEARCH_URL,
      DATABASE_PATH: config.DATABASE_PATH,
      ...(config.DATABASE_URL ? { DATABASE_URL: config.DATABASE_URL } : {}),
      INDEX_PREFIX: config.INDEX_PREFIX,
      REDIS_URL: config.REDIS_URL,
      KEY_PREFIX: config.KEY_PREFIX,
      NODE_ENV: config.NODE_ENV,
    },
    keyHashSecretGiven: readText(join(dirname(config.DATABASE_PATH), 'key-hash-secret')) !== config.KEY_HASH_SECRET,
    webhookSecretKeyGiven: readText(join(dirname(config.DATABASE_PATH), WEBHOOK_KEY_FILE)) !== config.WEBHOOK_SECRET_KEY,
  };
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  // 0600: REDIS_URL can carry a password.
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return {
    remove() {
      if (readRecord(file)?.pid === process.pid) rmSync(file, { force: true });
    },
  };
}

/** The record, or null when there is none or it is not one (a half-written file cannot be: see recordStack). */
export function readRecord(file: string): StackRecord | null {
  const text = readText(file);
  if (text === null) return null;
  try {
    const parsed = StackRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}
