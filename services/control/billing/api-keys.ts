import { createHmac, randomBytes } from 'node:crypto';
import type { Sql } from '../db/sql.ts';

/**
 * API keys (spec 5): `{prefix}_{live|test}_{32 base62}`. The raw key exists only in
 * the return value of createKey; the table keeps its HMAC-SHA256 under the server
 * secret, so a copy of the database cannot be used to call the API.
 */

export type KeyEnv = 'live' | 'test';
export const KEY_ENVS: readonly KeyEnv[] = ['live', 'test'];

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 32;

/** 32 base62 characters from the CSPRNG; bytes >= 248 are dropped so every character is equally likely. */
export function randomBase62(length = SECRET_LENGTH): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function formatKey(prefix: string, env: KeyEnv): string {
  return `${prefix}_${env}_${randomBase62()}`;
}

/** The shape check done before any lookup; returns the key's environment or null. */
export function keyPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_(live|test)_[0-9A-Za-z]{${SECRET_LENGTH}}$`);
}

export function hashKey(secret: string, rawKey: string): string {
  return createHmac('sha256', secret).update(rawKey).digest('hex');
}

export interface ApiKey {
  id: string;
  clientId: string;
  env: KeyEnv;
  /** Last four characters of the raw key, for telling keys apart; never the key. */
  hint: string;
  /** What the owner called it on the account page; null for keys an operator made with the CLI. */
  name: string | null;
  createdAt: string;
  /** Last successful authentication, to the minute (authenticate.ts writes it at most once a minute). */
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface KeyRow {
  id: string;
  client_id: string;
  env: string;
  hint: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function mapKeyRow(row: KeyRow): ApiKey {
  return {
    id: row.id,
    clientId: row.client_id,
    env: row.env as KeyEnv,
    hint: row.hint,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** Creates a key and returns the raw value: the only time it exists outside the caller. */
export async function createKey(
  sql: Sql,
  input: { clientId: string; env: KeyEnv; prefix: string; secret: string; now?: Date; name?: string },
): Promise<{ key: ApiKey; raw: string }> {
  const raw = formatKey(input.prefix, input.env);
  const id = `key_${randomBytes(9).toString('base64url')}`;
  await sql.run('INSERT INTO api_keys (id, client_id, env, hash, hint, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    id,
    input.clientId,
    input.env,
    hashKey(input.secret, raw),
    raw.slice(-4),
    input.name ?? null,
    (input.now ?? new Date()).toISOString(),
  ]);
  return { key: (await getKey(sql, id))!, raw };
}

export async function getKey(sql: Sql, id: string): Promise<ApiKey | null> {
  const row = await sql.get<KeyRow>('SELECT * FROM api_keys WHERE id = ?', [id]);
  return row ? mapKeyRow(row) : null;
}

/** Revokes a key; the next request with it is a 401 (authentication reads this row every time). */
export async function revokeKey(sql: Sql, id: string, now = new Date()): Promise<ApiKey | null> {
  await sql.run('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?', [now.toISOString(), id]);
  return getKey(sql, id);
}

export async function listKeys(sql: Sql, clientId: string): Promise<ApiKey[]> {
  const rows = await sql.all<KeyRow>('SELECT * FROM api_keys WHERE client_id = ? ORDER BY created_at, id', [clientId]);
  return rows.map(mapKeyRow);
}

/** Keys of the client that still authenticate (not revoked). */
export async function countActiveKeys(sql: Sql, clientId: string): Promise<number> {
  const row = await sql.get<{ n: number }>('SELECT count(*) AS n FROM api_keys WHERE client_id = ? AND revoked_at IS NULL', [clientId]);
  return row!.n;
}

/** last_used_at is written at most once a minute per key: "last used" to the minute, without a write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;
