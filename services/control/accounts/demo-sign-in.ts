import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBase62 } from '../billing/api-keys.ts';
import { DEMO_CLIENT_ID } from '../billing/demo-key.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Sql } from '../db/sql.ts';
import { createUser, findUserByEmail, setPasswordHash } from './users.ts';

/**
 * The demo client's sign-in for the account page of `npm start`, printed in the
 * banner beside the demo key. Like the key, the password lives in a git-ignored 0600 file in the
 * data folder (SQLite keeps only its argon2id hash), so later starts print the same one.
 */
export const DEMO_EMAIL = 'demo@example.com';

export function demoPasswordFile(databasePath: string): string {
  return join(dirname(databasePath), 'demo-password');
}

/** Call after ensureDemoKey (which makes the demo client). */
export async function ensureDemoSignIn(sql: Sql, config: { DATABASE_PATH: string }): Promise<{ email: string; password: string }> {
  const file = demoPasswordFile(config.DATABASE_PATH);
  let password = '';
  if (existsSync(file)) {
    chmodSync(file, 0o600);
    password = readFileSync(file, 'utf8').trim();
  }
  const user = await findUserByEmail(sql, DEMO_EMAIL);
  if (user && password !== '' && (await verifyPassword(user.passwordHash, password))) return { email: DEMO_EMAIL, password };
  if (password.length < 20) {
    password = randomBase62(20);
    writeFileSync(file, `${password}\n`, { mode: 0o600 });
  }
  const hash = await hashPassword(password);
  if (user) await setPasswordHash(sql, user.id, hash);
  else await createUser(sql, { clientId: DEMO_CLIENT_ID, email: DEMO_EMAIL, passwordHash: hash, now: new Date(), verified: true });
  return { email: DEMO_EMAIL, password };
}
