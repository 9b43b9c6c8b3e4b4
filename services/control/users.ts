import { randomBytes } from 'node:crypto';
import type { Database } from 'better-sqlite3';

/** People who sign in to the account page; each belongs to one client (workspace). */

export interface User {
  id: string;
  clientId: string;
  email: string;
  passwordHash: string;
  emailVerifiedAt: string | null;
  createdAt: string;
  lastSignInAt: string | null;
}

interface UserRow {
  id: string;
  client_id: string;
  email: string;
  password_hash: string;
  email_verified_at: string | null;
  created_at: string;
  last_sign_in_at: string | null;
}

function mapUserRow(row: UserRow): User {
  return {
    id: row.id,
    clientId: row.client_id,
    email: row.email,
    passwordHash: row.password_hash,
    emailVerifiedAt: row.email_verified_at,
    createdAt: row.created_at,
    lastSignInAt: row.last_sign_in_at,
  };
}

/** How every address is stored and looked up: trimmed and lower-cased, so one mailbox is one user. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class EmailTakenError extends Error {
  override name = 'EmailTakenError';
  readonly code = 'email_taken';
}

export function createUser(
  db: Database,
  input: { clientId: string; email: string; passwordHash: string; now: Date; verified?: boolean; id?: string },
): User {
  const id = input.id ?? `usr_${randomBytes(9).toString('base64url')}`;
  const at = input.now.toISOString();
  try {
    db.prepare(
      'INSERT INTO users (id, client_id, email, password_hash, email_verified_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(id, input.clientId, normalizeEmail(input.email), input.passwordHash, input.verified ? at : null, at);
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new EmailTakenError(`${input.email} already has an account`);
    throw err;
  }
  return getUser(db, id)!;
}

export function getUser(db: Database, id: string): User | null {
  const row = db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  return row ? mapUserRow(row) : null;
}

export function findUserByEmail(db: Database, email: string): User | null {
  const row = db.prepare('SELECT * FROM users WHERE email = ?').get(normalizeEmail(email)) as UserRow | undefined;
  return row ? mapUserRow(row) : null;
}

export function listUsers(db: Database, clientId?: string): User[] {
  const rows = (
    clientId === undefined
      ? db.prepare('SELECT * FROM users ORDER BY created_at, id').all()
      : db.prepare('SELECT * FROM users WHERE client_id = ? ORDER BY created_at, id').all(clientId)
  ) as UserRow[];
  return rows.map(mapUserRow);
}

export function setPasswordHash(db: Database, userId: string, passwordHash: string): void {
  db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, userId);
}

/** Marks the address verified (once: a later call keeps the first time). */
export function markEmailVerified(db: Database, userId: string, now: Date): void {
  db.prepare('UPDATE users SET email_verified_at = coalesce(email_verified_at, ?) WHERE id = ?').run(now.toISOString(), userId);
}

export function recordSignIn(db: Database, userId: string, now: Date): void {
  db.prepare('UPDATE users SET last_sign_in_at = ? WHERE id = ?').run(now.toISOString(), userId);
}
