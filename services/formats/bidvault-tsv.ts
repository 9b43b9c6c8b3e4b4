/**
 * bidvault-tsv: BidVault's API export, written by a program for programs.
 * - Tab-separated, LF, one row per line, header of short snake_case names. Text
 *   never holds a raw tab or line break: \t \n \r \\ are backslash-escaped.
 * - Money in integer cents ("123456"); dates MM/DD/YYYY; rate in percent.
 * - Its own state words (Won, Paid Off, Deed Pending, ...); county_held 1/0.
 * - No redeemed flag: the state word says it (Paid Off), with redeemed_on and
 *   redeemed_cents beside it.
 * - County by slug (names are accepted too).
 * - No trailer: every line ends with LF, so a last line without one was cut off.
 */
export const BIDVAULT_HEADER = [
  'county',
  'cert_no',
  'parcel',
  'yr',
  'state',
  'face_cents',
  'tax_cents',
  'rate',
  'sold_on',
  'buyer',
  'county_held',
  'redeemed_on',
  'redeemed_cents',
  'deed_app_on',
  'owner',
  'address',
  'legal',
  'batch',
] as const;

export const BIDVAULT_STATUS: Readonly<Record<string, string>> = {
  sold: 'Won',
  redeemed: 'Paid Off',
  available: 'Open',
  advertised: 'Listed',
  lands_available: 'Land Avail',
  tax_deed_applied: 'Deed Pending',
  cancelled: 'Withdrawn',
};
