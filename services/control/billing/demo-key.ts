import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createKey, hashKey } from './api-keys.ts';
import { createClient, getClient } from './clients.ts';
import type { Sql } from '../db/sql.ts';

/**
 * The demo client and key of `npm start`. The raw key lives in a git-ignored file
 * beside the database (the data folder), never in SQLite, so later starts can print
 * it again; if the file is missing or its key no longer works, a new key is made.
 */
export const DEMO_CLIENT_ID = 'cli_demo';

export function demoKeyFile(databasePath: string): string {
  return join(dirname(databasePath), 'demo-api-key');
}

export async function ensureDemoKey(
  sql: Sql,
  config: { DATABASE_PATH: string; KEY_PREFIX: string; KEY_HASH_SECRET: string },
): Promise<{ key: string; created: boolean }> {
  // Enterprise: the one plan with every feature (REST, MCP, CSV, webhooks).
  if (!(await getClient(sql, DEMO_CLIENT_ID))) await createClient(sql, { id: DEMO_CLIENT_ID, name: 'Demo', plan: 'enterprise' });
  const file = demoKeyFile(config.DATABASE_PATH);
  if (existsSync(file)) {
    // writeFileSync's mode applies only to a file it creates: a key file left readable by an
    // older start or a copy (cp, an archive) is closed before its key is read or replaced, so
    // another user of the machine cannot read the key.
    chmodSync(file, 0o600);
    const key = readFileSync(file, 'utf8').trim();
    const row = await sql.get<{ revoked_at: string | null }>('SELECT revoked_at FROM api_keys WHERE hash = ? AND client_id = ?', [
      hashKey(config.KEY_HASH_SECRET, key),
      DEMO_CLIENT_ID,
    ]);
    if (row && row.revoked_at === null) return { key, created: false };
  }
  const { raw } = await createKey(sql, {
    clientId: DEMO_CLIENT_ID,
    env: 'live',
    prefix: config.KEY_PREFIX,
    secret: config.KEY_HASH_SECRET,
  });
  // The data folder exists beside a SQLite file; with the control plane on PostgreSQL it may not yet.
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${raw}\n`, { mode: 0o600 });
  return { key: raw, created: true };
}
