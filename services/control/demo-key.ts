import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { createKey, hashKey } from './api-keys.ts';
import { createClient, getClient } from './clients.ts';

/**
 * The demo client and key of `npm start`. The raw key lives in a git-ignored file
 * beside the database (the data folder), never in SQLite, so later starts can print
 * it again; if the file is missing or its key no longer works, a new key is made.
 */
export const DEMO_CLIENT_ID = 'cli_demo';

export function demoKeyFile(databasePath: string): string {
  return join(dirname(databasePath), 'demo-api-key');
}

export function ensureDemoKey(
  db: Database,
  config: { DATABASE_PATH: string; KEY_PREFIX: string; KEY_HASH_SECRET: string },
): { key: string; created: boolean } {
  // Enterprise: the one plan with every feature (REST, MCP, CSV, webhooks).
  if (!getClient(db, DEMO_CLIENT_ID)) createClient(db, { id: DEMO_CLIENT_ID, name: 'Demo', plan: 'enterprise' });
  const file = demoKeyFile(config.DATABASE_PATH);
  if (existsSync(file)) {
    // writeFileSync's mode applies only to a file it creates: a key file left readable by an
    // older start or a copy (cp, an archive) is closed before its key is read or replaced
    // (issue 23, item 7).
    chmodSync(file, 0o600);
    const key = readFileSync(file, 'utf8').trim();
    const row = db
      .prepare('SELECT revoked_at FROM api_keys WHERE hash = ? AND client_id = ?')
      .get(hashKey(config.KEY_HASH_SECRET, key), DEMO_CLIENT_ID) as { revoked_at: string | null } | undefined;
    if (row && row.revoked_at === null) return { key, created: false };
  }
  const { raw } = createKey(db, { clientId: DEMO_CLIENT_ID, env: 'live', prefix: config.KEY_PREFIX, secret: config.KEY_HASH_SECRET });
  writeFileSync(file, `${raw}\n`, { mode: 0o600 });
  return { key: raw, created: true };
}
