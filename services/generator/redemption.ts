import { quoteAmounts } from '../domain/redemption-quote.ts';

/**
 * What the holder of a generated certificate received when it was redeemed: the
 * quote's holder_amount on the redeemed date (services/domain/redemption-quote.ts).
 * The generator computes no interest of its own, so the record
 * validation and the API quote agree with every redeemed demo certificate.
 */
export function redemptionAmountOn(face: number, ratePercent: number, saleDate: string, redeemedDate: string): number {
  if (redeemedDate < saleDate) throw new RangeError(`redeemed ${redeemedDate} before the sale ${saleDate}`);
  return quoteAmounts(face, ratePercent, saleDate, redeemedDate).holder_amount_cents / 100;
}
