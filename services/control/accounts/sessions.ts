import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../db/sql.ts';

/**
 * Server-side sessions of the account page (a session can then be ended at once, at sign-out
 * or expiry, which a self-contained cookie cannot). The cookie holds 32 random bytes; the
 * table keeps their SHA-256, so neither a copy of the database nor a log of it can be turned
 * back into a cookie. A session ends after 30 minutes without a request or 12 hours after it
 * began, whichever comes first; an ended session is deleted when it is next presented.
 */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

export interface Session {
  userId: string;
  createdAt: string;
  lastSeenAt: string;
}

export type SessionState = 'active' | 'idle' | 'expired';

/** Whether a session may still be used at `now`: idle past 30 minutes, or older than 12 hours. */
export function sessionState(session: Pick<Session, 'createdAt' | 'lastSeenAt'>, now: Date): SessionState {
  const t = now.getTime();
  if (t - Date.parse(session.createdAt) >= SESSION_MAX_MS) return 'expired';
  if (t - Date.parse(session.lastSeenAt) >= SESSION_IDLE_MS) return 'idle';
  return 'active';
}

const digest = (id: string) => createHash('sha256').update(id).digest('hex');

/** Starts a session; returns the cookie value, the only place the raw id exists. */
export async function createSession(sql: Sql, userId: string, now: Date): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const at = now.toISOString();
  await sql.run('INSERT INTO sessions (id_hash, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)', [digest(id), userId, at, at]);
  return id;
}

/**
 * The session a cookie names, if it is still usable at `now` (then its idle clock restarts);
 * an ended one is deleted and reported as such, so the page can say why it asks to sign in.
 */
export async function useSession(sql: Sql, cookie: string, now: Date): Promise<{ session: Session } | { ended: SessionState } | null> {
  const hash = digest(cookie);
  const row = await sql.get<{ user_id: string; created_at: string; last_seen_at: string }>(
    'SELECT user_id, created_at, last_seen_at FROM sessions WHERE id_hash = ?',
    [hash],
  );
  if (!row) return null;
  const session: Session = { userId: row.user_id, createdAt: row.created_at, lastSeenAt: row.last_seen_at };
  const state = sessionState(session, now);
  if (state !== 'active') {
    await sql.run('DELETE FROM sessions WHERE id_hash = ?', [hash]);
    return { ended: state };
  }
  await sql.run('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?', [now.toISOString(), hash]);
  return { session: { ...session, lastSeenAt: now.toISOString() } };
}

export async function deleteSession(sql: Sql, cookie: string): Promise<void> {
  await sql.run('DELETE FROM sessions WHERE id_hash = ?', [digest(cookie)]);
}

/** Signs a user out everywhere (a new password, an operator's suspension of the user's access). */
export async function deleteUserSessions(sql: Sql, userId: string): Promise<void> {
  await sql.run('DELETE FROM sessions WHERE user_id = ?', [userId]);
}

/** Sessions that ended without being presented again; removed by the server now and then. */
export async function pruneSessions(sql: Sql, now: Date): Promise<number> {
  const idle = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  const old = new Date(now.getTime() - SESSION_MAX_MS).toISOString();
  return (await sql.run('DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?', [idle, old])).changes;
}
