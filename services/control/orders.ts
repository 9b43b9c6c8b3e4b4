import { setClient } from './clients.ts';
import { grantPack, type PackName, PACKS } from './packs.ts';
import { getPlan, type PlanCode } from './plans.ts';
import type { Sql } from './sql.ts';

/**
 * What a customer buys on the account page: a plan or a credit pack. Once paid, an order is
 * fulfilled by the very writes an operator's CLI makes (`taxcert clients set --plan`, `taxcert
 * packs grant`), so the books cannot differ by who made the change.
 */
export type Order = { kind: 'plan'; plan: PlanCode } | { kind: 'pack'; pack: PackName };

/** The price of an order in USD cents (a plan's is monthly), or null when it has none (Enterprise). */
export async function orderPrice(sql: Sql, order: Order): Promise<number | null> {
  return order.kind === 'plan' ? (await getPlan(sql, order.plan)).priceUsdCents : PACKS[order.pack].priceUsdCents;
}

export async function fulfilOrder(sql: Sql, clientId: string, order: Order, now: Date): Promise<void> {
  if (order.kind === 'plan') await setClient(sql, clientId, { plan: order.plan });
  else await grantPack(sql, { clientId, pack: order.pack, purchasedAt: now });
}
