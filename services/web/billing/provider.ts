import type { Order } from '../../control/billing/orders.ts';

/**
 * The one seam between the account page and whoever takes payment. The page asks
 * the provider to check out an order; the provider answers paid (the page fulfils the order at
 * once with control/billing/orders.ts) or hands the customer to its own hosted checkout (a production
 * processor, which then confirms payment to us by its webhook and the order is fulfilled by
 * the same fulfilOrder). No payment processor is reachable from our machines, so the default
 * outside production is the test-mode provider: clearly marked on every page it touches,
 * completing at once, taking no money.
 */
export interface CheckoutRequest {
  /** The order's id: a provider's confirmation names it, and fulfilOrder fulfils it once. */
  orderId: string;
  clientId: string;
  email: string;
  order: Order;
  /** USD cents: a plan's monthly price or a pack's one-time price. */
  priceUsdCents: number;
  /** What the customer sees on the processor's page. */
  description: string;
}

export type CheckoutResult = { status: 'paid' } | { status: 'redirect'; url: string };

export interface BillingProvider {
  readonly name: string;
  /** True when no money moves: the pages say so next to every price and button. */
  readonly testMode: boolean;
  checkout(request: CheckoutRequest): Promise<CheckoutResult>;
}

export const testModeProvider: BillingProvider = {
  name: 'test-mode',
  testMode: true,
  async checkout() {
    return { status: 'paid' };
  },
};

/** BILLING_PROVIDER: test-mode, or none (prices are shown, changes go through an operator). */
export function billingProvider(name: 'test-mode' | 'none'): BillingProvider | null {
  return name === 'test-mode' ? testModeProvider : null;
}
