/**
 * parcelmart-csv: ParcelMart's bulk download, a database dump rather than a
 * spreadsheet export.
 * - Comma CSV, LF, snake_case header; EVERY field is quoted, and owner names and
 *   legal descriptions carry commas, doubled quotes and line breaks (multi-line
 *   legals), so a row often spans lines.
 * - Money plain dollars "1234.56"; dates YYYY-MM-DD; bid_pct in percent;
 *   flags "true"/"false"; county by 5-digit FIPS ("12086").
 * - Truncation: a cut inside a quoted field leaves an unclosed quote; a cut
 *   between fields leaves a short last row with no line break.
 */
export const PARCELMART_HEADER = [
  'fips',
  'parcel',
  'certificate',
  'year',
  'batch',
  'sale_date',
  'status',
  'struck',
  'bid_pct',
  'face',
  'delinquent',
  'holder',
  'owner_name',
  'property_address',
  'legal_desc',
  'redeemed',
  'redeem_date',
  'redeem_amt',
  'tda_date',
] as const;

export const PARCELMART_STATUS: Readonly<Record<string, string>> = {
  sold: 'ISSUED',
  redeemed: 'REDEEMED',
  available: 'UNSOLD',
  advertised: 'ADVERTISED',
  lands_available: 'LAND_AVAIL',
  tax_deed_applied: 'DEED_APP',
  cancelled: 'VOID',
};
