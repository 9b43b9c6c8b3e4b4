import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/sql.ts';

/** Credit packs (spec 8.5): one-time credits on any plan, valid 12 months, never a plan feature or RPM. */

export const PACKS = {
  starter: { credits: 1_000, priceUsdCents: 500 },
  investigator: { credits: 5_000, priceUsdCents: 2_300 },
  bulk: { credits: 25_000, priceUsdCents: 9_900 },
  power: { credits: 100_000, priceUsdCents: 34_900 },
} as const;
export type PackName = keyof typeof PACKS;
export const PACK_NAMES = Object.keys(PACKS) as PackName[];

export function isPackName(value: string): value is PackName {
  return Object.hasOwn(PACKS, value);
}

/** Same day and time twelve calendar months later (29 February falls to 1 March). */
export function packExpiry(purchasedAt: Date): Date {
  const d = new Date(purchasedAt.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d;
}

export interface CreditPack {
  id: string;
  clientId: string;
  pack: PackName;
  credits: number;
  remaining: number;
  purchasedAt: string;
  expiresAt: string;
  expiredAt: string | null;
}

/** Records a purchase and its ledger row in one transaction. */
export async function grantPack(sql: Sql, input: { clientId: string; pack: PackName; purchasedAt?: Date }): Promise<CreditPack> {
  const purchased = input.purchasedAt ?? new Date();
  const { credits, priceUsdCents } = PACKS[input.pack];
  const id = `pck_${randomBytes(9).toString('base64url')}`;
  await sql.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO credit_packs (id, client_id, pack, credits, price_usd_cents, remaining, purchased_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, input.clientId, input.pack, credits, priceUsdCents, credits, purchased.toISOString(), packExpiry(purchased).toISOString()],
    );
    await tx.run(
      `INSERT INTO credit_ledger (client_id, kind, bucket, period, pack_id, amount, at)
       VALUES (?, 'pack_purchase', 'pack', ?, ?, ?, ?)`,
      [input.clientId, purchased.toISOString().slice(0, 7), id, credits, purchased.toISOString()],
    );
  });
  return (await listPacks(sql, input.clientId)).find((p) => p.id === id)!;
}

export async function listPacks(sql: Sql, clientId: string): Promise<CreditPack[]> {
  return sql.all<CreditPack>(
    `SELECT id, client_id AS "clientId", pack, credits, remaining, purchased_at AS "purchasedAt",
       expires_at AS "expiresAt", expired_at AS "expiredAt"
     FROM credit_packs WHERE client_id = ? ORDER BY expires_at, id`,
    [clientId],
  );
}
