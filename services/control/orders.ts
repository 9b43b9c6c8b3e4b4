import type { Database } from 'better-sqlite3';
import { setClient } from './clients.ts';
import { grantPack, type PackName, PACKS } from './packs.ts';
import { getPlan, type PlanCode } from './plans.ts';

/**
 * What a customer buys on the account page: a plan or a credit pack. Once paid, an order is
 * fulfilled by the very writes an operator's CLI makes (`taxcert clients set --plan`, `taxcert
 * packs grant`), so the books cannot differ by who made the change.
 */
export type Order = { kind: 'plan'; plan: PlanCode } | { kind: 'pack'; pack: PackName };

/** The price of an order in USD cents (a plan's is monthly), or null when it has none (Enterprise). */
export function orderPrice(db: Database, order: Order): number | null {
  return order.kind === 'plan' ? getPlan(db, order.plan).priceUsdCents : PACKS[order.pack].priceUsdCents;
}

export function fulfilOrder(db: Database, clientId: string, order: Order, now: Date): void {
  if (order.kind === 'plan') setClient(db, clientId, { plan: order.plan });
  else grantPack(db, { clientId, pack: order.pack, purchasedAt: now });
}
