import { randomBytes } from 'node:crypto';
import { isUniqueViolation, type Sql } from '../db/sql.ts';

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

export async function createUser(
  sql: Sql,
  input: { clientId: string; email: string; passwordHash: string; now: Date; verified?: boolean; id?: string },
): Promise<User> {
  const id = input.id ?? `usr_${randomBytes(9).toString('base64url')}`;
  const at = input.now.toISOString();
  try {
    await sql.run('INSERT INTO users (id, client_id, email, password_hash, email_verified_at, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      input.clientId,
      normalizeEmail(input.email),
      input.passwordHash,
      input.verified ? at : null,
      at,
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new EmailTakenError(`${input.email} already has an account`);
    throw err;
  }
  return (await getUser(sql, id))!;
}

export async function getUser(sql: Sql, id: string): Promise<User | null> {
  const row = await sql.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
  return row ? mapUserRow(row) : null;
}

export async function findUserByEmail(sql: Sql, email: string): Promise<User | null> {
  const row = await sql.get<UserRow>('SELECT * FROM users WHERE email = ?', [normalizeEmail(email)]);
  return row ? mapUserRow(row) : null;
}

export async function listUsers(sql: Sql, clientId?: string): Promise<User[]> {
  const rows =
    clientId === undefined
      ? await sql.all<UserRow>('SELECT * FROM users ORDER BY created_at, id')
      : await sql.all<UserRow>('SELECT * FROM users WHERE client_id = ? ORDER BY created_at, id', [clientId]);
  return rows.map(mapUserRow);
}

export async function setPasswordHash(sql: Sql, userId: string, passwordHash: string): Promise<void> {
  await sql.run('UPDATE users SET password_hash = ? WHERE id = ?', [passwordHash, userId]);
}

/** Marks the address verified (once: a later call keeps the first time). */
export async function markEmailVerified(sql: Sql, userId: string, now: Date): Promise<void> {
  await sql.run('UPDATE users SET email_verified_at = coalesce(email_verified_at, ?) WHERE id = ?', [now.toISOString(), userId]);
}

export async function recordSignIn(sql: Sql, userId: string, now: Date): Promise<void> {
  await sql.run('UPDATE users SET last_sign_in_at = ? WHERE id = ?', [now.toISOString(), userId]);
}
