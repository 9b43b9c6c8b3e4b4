import { hashKey, type KeyEnv, keyPattern, LAST_USED_RESOLUTION_MS } from '../../control/billing/api-keys.ts';
import type { Client, ClientRow } from '../../control/billing/clients.ts';
import { mapClientRow } from '../../control/billing/clients.ts';
import type { Account } from '../../control/billing/ledger.ts';
import { effectivePlan, mapPlanRow, type Plan } from '../../control/billing/plans.ts';
import type { Sql } from '../../control/db/sql.ts';
import { UnauthorizedError } from './errors.ts';

/**
 * Who is calling (spec 5). Every failure is the same UnauthorizedError, so a
 * missing, malformed, unknown or revoked key, a suspended client and conflicting
 * headers cannot be told apart by body; each case also hashes and looks up once so
 * they cannot be told apart by time either. Nothing is cached: a revocation, a
 * suspension or a plan change holds from the very next request.
 */

export interface Principal {
  keyId: string;
  env: KeyEnv;
  client: Client;
  /** The plan with the client's contract numbers (Enterprise) applied. */
  plan: Plan;
  account: Account;
}

/** The request headers authentication reads (Node's lower-cased IncomingHttpHeaders fit). */
export type AuthHeaders = Record<string, string | string[] | undefined>;

/** 'Bearer' in any case, exactly one space, then a value without whitespace. */
const BEARER = /^bearer ([^\s]+)$/i;

/**
 * The key the headers present, or null when they present none or an unusable one.
 * ?api_key= is never consulted: only these two headers authenticate.
 */
export function presentedKey(headers: AuthHeaders): string | null {
  const authorization = headers.authorization;
  const apiKey = headers['x-api-key'];
  if (Array.isArray(authorization) || Array.isArray(apiKey)) return null;
  let fromBearer: string | undefined;
  if (authorization !== undefined) {
    const m = BEARER.exec(authorization);
    if (!m) return null; // another scheme, two spaces, an empty value: no key at all
    fromBearer = m[1];
  }
  if (fromBearer !== undefined && apiKey !== undefined && fromBearer !== apiKey) return null;
  return fromBearer ?? apiKey ?? null;
}

interface LookupRow extends ClientRow {
  key_id: string;
  key_env: string;
  key_revoked_at: string | null;
  key_last_used_at: string | null;
  plan_code: string;
  plan_name: string;
  plan_price_usd_cents: number | null;
  plan_monthly_credits: number;
  plan_rpm: number;
  plan_rest: number;
  plan_mcp: number;
  plan_csv: number;
  plan_webhooks: string;
  plan_overage: number;
}

export type Authenticate = (headers: AuthHeaders) => Promise<Principal>;

const LOOKUP = `SELECT k.id AS key_id, k.env AS key_env, k.revoked_at AS key_revoked_at, k.last_used_at AS key_last_used_at, c.*,
       p.code AS plan_code, p.name AS plan_name, p.price_usd_cents AS plan_price_usd_cents,
       p.monthly_credits AS plan_monthly_credits, p.rpm AS plan_rpm, p.rest AS plan_rest, p.mcp AS plan_mcp,
       p.csv AS plan_csv, p.webhooks AS plan_webhooks, p.overage AS plan_overage
     FROM api_keys k JOIN clients c ON c.id = k.client_id JOIN plans p ON p.code = c.plan
     WHERE k.hash = ?`;
const MARK_USED = 'UPDATE api_keys SET last_used_at = ? WHERE id = ?';

export function createAuthenticate(sql: Sql, options: { secret: string; prefix: string }): Authenticate {
  const pattern = keyPattern(options.prefix);
  return async (headers) => {
    const raw = presentedKey(headers);
    const wellFormed = raw !== null && pattern.test(raw);
    // A malformed or absent key is still hashed and looked up, so it costs what a real one costs.
    const row = await sql.get<LookupRow>(LOOKUP, [hashKey(options.secret, wellFormed ? raw : '-')]);
    if (!wellFormed || !row || row.key_revoked_at !== null || row.status !== 'active') throw new UnauthorizedError();
    const client = mapClientRow(row);
    const base = mapPlanRow({
      code: row.plan_code,
      name: row.plan_name,
      price_usd_cents: row.plan_price_usd_cents,
      monthly_credits: row.plan_monthly_credits,
      rpm: row.plan_rpm,
      rest: row.plan_rest,
      mcp: row.plan_mcp,
      csv: row.plan_csv,
      webhooks: row.plan_webhooks,
      overage: row.plan_overage,
    });
    const plan: Plan = effectivePlan(base, client);
    // "Last used" on the account page, to the minute: one small write per key a minute, not one per
    // request. A bookkeeping write that fails (the database busy past its timeout) must not refuse
    // a request whose key is good: the next request a minute on writes it.
    const now = Date.now();
    if (row.key_last_used_at === null || now - Date.parse(row.key_last_used_at) >= LAST_USED_RESOLUTION_MS) {
      try {
        await sql.run(MARK_USED, [new Date(now).toISOString(), row.key_id]);
      } catch {
        // see above
      }
    }
    const env = row.key_env as KeyEnv;
    return {
      keyId: row.key_id,
      env,
      client,
      plan,
      account: { clientId: client.id, plan, subscription: client.subscription, createdAt: client.createdAt, env },
    };
  };
}
