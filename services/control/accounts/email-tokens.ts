import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../db/sql.ts';

/**
 * Single-use links mailed to a user: confirm an address, reset a password. The link
 * carries 32 random bytes; the table keeps their SHA-256. Consuming is one UPDATE that also
 * checks unused and unexpired, so two clicks racing each other cannot both succeed.
 */
export type TokenPurpose = 'verify' | 'reset';

/**
 * A reset link works for 30 minutes (it lets its holder set the password: a mailbox read later
 * must not hold a live one); a verification link for a day.
 */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 30 * 60 * 1000,
};

const digest = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Makes a new link for the user and spends any earlier unused one of the same purpose, so only
 * the newest mail's link works. Returns the raw token: it goes into the mail and nowhere else.
 */
export async function issueToken(sql: Sql, userId: string, purpose: TokenPurpose, now: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const at = now.toISOString();
  await sql.transaction(async (tx) => {
    await tx.run('UPDATE email_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL', [at, userId, purpose]);
    await tx.run('INSERT INTO email_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
      digest(token),
      userId,
      purpose,
      at,
      new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
    ]);
  });
  return token;
}

/** The user a link belongs to while it is unused and unexpired, without spending it (to show the form). */
export async function peekToken(sql: Sql, token: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
  const row = await sql.get<{ user_id: string }>(
    'SELECT user_id FROM email_tokens WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?',
    [digest(token), purpose, now.toISOString()],
  );
  return row?.user_id ?? null;
}

/** Spends a link: the user it belongs to, or null when it is unknown, used or expired. */
export async function consumeToken(sql: Sql, token: string, purpose: TokenPurpose, now: Date): Promise<string | null> {
  const row = await sql.get<{ user_id: string }>(
    `UPDATE email_tokens SET used_at = ? WHERE token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?
     RETURNING user_id`,
    [now.toISOString(), digest(token), purpose, now.toISOString()],
  );
  return row?.user_id ?? null;
}

/** Links spent or expired a day ago or more: removed by the server now and then (nothing reads them again). */
export async function pruneTokens(sql: Sql, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
  return (await sql.run('DELETE FROM email_tokens WHERE expires_at <= ? OR used_at <= ?', [dayAgo, dayAgo])).changes;
}
