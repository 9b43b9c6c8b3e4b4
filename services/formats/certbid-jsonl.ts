/**
 * certbid-jsonl: CertBid's JSON feed. JSON Lines rather than one JSON array, so
 * neither side ever holds a whole county in memory.
 * - Line 1, header: {"feed":"certbid-certificates","version":1,"county":"<slug>",
 *   "taxYear":2024,"generatedAt":"<ISO>"}; a county other than the job's rejects
 *   the file.
 * - One object per certificate, camelCase keys, ISO dates, money
 *   as JSON numbers in dollars, status as camelCase enum (CERTBID_STATUS),
 *   holderName null when the county holds it, redemption null or {date, amount}.
 *   Rows carry no county: the header names it.
 * - Last line, trailer: {"trailer":true,"count":N}. No trailer, a wrong count or
 *   a last line without a line break means the feed was cut off.
 * fields of a RawRow are the object flattened to text (nested keys joined with
 * ".", null as ""), so toInput reads it like any other format.
 */
export const FEED_NAME = 'certbid-certificates';

export const CERTBID_STATUS: Readonly<Record<string, string>> = {
  sold: 'sold',
  redeemed: 'redeemed',
  available: 'available',
  advertised: 'advertised',
  lands_available: 'landsAvailable',
  tax_deed_applied: 'deedApplied',
  cancelled: 'cancelled',
};
