import { randomBytes } from 'node:crypto';
import { setClient } from './clients.ts';
import { grantPack, type PackName, PACKS } from './packs.ts';
import { getPlan, type PlanCode } from './plans.ts';
import type { Sql } from '../db/sql.ts';

/**
 * What a customer buys on the account page: a plan or a credit pack. Each checkout form carries
 * an order id of its own; the order is recorded under it when the form is posted and fulfilled
 * once by that id, by the very writes an operator's CLI makes (`taxcert clients set --plan`,
 * `taxcert packs grant`), so the books cannot differ by who made the change, and neither the
 * same form posted again nor a payment provider confirming twice grants twice.
 */
export type Order = { kind: 'plan'; plan: PlanCode } | { kind: 'pack'; pack: PackName };

/** The order as one word, as the checkout form names it: plan:pro, pack:starter. */
export const orderItem = (order: Order): string => (order.kind === 'plan' ? `plan:${order.plan}` : `pack:${order.pack}`);

/** A new order id for a checkout form: 12 random bytes, so one customer cannot name another's order. */
export const newOrderId = (): string => `ord_${randomBytes(12).toString('base64url')}`;
export const ORDER_ID = /^ord_[A-Za-z0-9_-]{16}$/;

export interface PlacedOrder {
  id: string;
  clientId: string;
  item: string;
  priceUsdCents: number;
  createdAt: string;
  fulfilledAt: string | null;
}

/** An order id already names an order of another client or for another item. */
export class OrderConflictError extends Error {
  override name = 'OrderConflictError';
  readonly code = 'order_conflict';
}

export class UnknownOrderError extends Error {
  override name = 'UnknownOrderError';
  readonly code = 'unknown_order';
}

/** The price of an order in USD cents (a plan's is monthly), or null when it has none (Enterprise). */
export async function orderPrice(sql: Sql, order: Order): Promise<number | null> {
  return order.kind === 'plan' ? (await getPlan(sql, order.plan)).priceUsdCents : PACKS[order.pack].priceUsdCents;
}

const SELECT_ORDER = `SELECT id, client_id AS "clientId", item, price_usd_cents AS "priceUsdCents", created_at AS "createdAt",
  fulfilled_at AS "fulfilledAt" FROM orders WHERE id = ?`;

export async function getOrder(sql: Sql, id: string): Promise<PlacedOrder | null> {
  return (await sql.get<PlacedOrder>(SELECT_ORDER, [id])) ?? null;
}

/**
 * Records the order a checkout form names, or finds it when that form was posted before (then
 * it may be fulfilled already). An id that names another client's order, or another item, is
 * an OrderConflictError: a form is one order.
 */
export async function placeOrder(
  sql: Sql,
  input: { id: string; clientId: string; order: Order; priceUsdCents: number; now: Date },
): Promise<PlacedOrder> {
  const item = orderItem(input.order);
  await sql.run(
    'INSERT INTO orders (id, client_id, item, price_usd_cents, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING',
    [input.id, input.clientId, item, input.priceUsdCents, input.now.toISOString()],
  );
  const placed = (await getOrder(sql, input.id))!;
  if (placed.clientId !== input.clientId || placed.item !== item) throw new OrderConflictError(`order ${input.id} is another order`);
  return placed;
}

/**
 * Fulfils an order exactly once: the UPDATE that marks it fulfilled and the grant are one
 * transaction, and only the call whose UPDATE found it unfulfilled grants. Returns true when
 * this call granted it, false when it had been fulfilled already.
 */
export async function fulfilOrder(sql: Sql, orderId: string, now: Date): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const row = await tx.get<{ client_id: string; item: string }>(
      'UPDATE orders SET fulfilled_at = ? WHERE id = ? AND fulfilled_at IS NULL RETURNING client_id, item',
      [now.toISOString(), orderId],
    );
    if (!row) {
      if ((await getOrder(tx, orderId)) === null) throw new UnknownOrderError(`no order ${orderId}`);
      return false;
    }
    const [kind, name] = row.item.split(':') as ['plan' | 'pack', string];
    if (kind === 'plan') await setClient(tx, row.client_id, { plan: name as PlanCode });
    else await grantPack(tx, { clientId: row.client_id, pack: name as PackName, purchasedAt: now });
    return true;
  });
}
