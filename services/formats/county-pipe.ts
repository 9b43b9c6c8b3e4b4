/**
 * county-pipe: the tax collectors' own certificate file (also LienExchange and
 * manual uploads, which copy it): the layout of the county tax systems' report.
 * - Pipe-delimited, LF, one row per line, upper-case header; text never holds a
 *   raw pipe or line break: \| \n \r \\ are backslash-escaped.
 * - Money "1,234.56" (no $); dates YYYY-MM-DD; rate in percent; flags Y/N.
 * - Three-letter status codes of the collector's system (ISS issued, RED, TDA,
 *   ADV, ...); county by upper-case name.
 * - Last line "EOF|<row count>": a missing trailer or a wrong count means the
 *   file was cut off.
 */
export const COUNTY_PIPE_HEADER = [
  'COUNTY',
  'CERT_NO',
  'TAX_YR',
  'PARCEL_ID',
  'STAT',
  'FACE_AMT',
  'DELQ_AMT',
  'INT_RATE',
  'SALE_DT',
  'CERT_HOLDER',
  'CNTY_HELD',
  'REDEEMED',
  'REDEEM_DT',
  'REDEEM_AMT',
  'TDA_DT',
  'OWNER',
  'SITUS',
  'LEGAL',
  'BATCH',
] as const;

export const COUNTY_PIPE_STATUS: Readonly<Record<string, string>> = {
  sold: 'ISS',
  redeemed: 'RED',
  available: 'AVL',
  advertised: 'ADV',
  lands_available: 'LAV',
  tax_deed_applied: 'TDA',
  cancelled: 'CAN',
};
export const COUNTY_PIPE_TRAILER = 'EOF|';
