/**
 * lienport-csv: LienPort's "Certificate Export" download, made for Excel users.
 * - Comma CSV, CRLF, header row with the quoted display names below; a field is
 *   quoted only when it holds a comma, quote or line break (legal descriptions may
 *   span lines). Every row ends with CRLF, so a file without a final line break
 *   was cut off.
 * - Money "$1,234.56"; dates MM/DD/YYYY; rate in percent ("0.25"); flags Y/N.
 * - County by display name on every row ("Miami-Dade").
 * - Holder blank when the county holds the certificate; Legal Description and
 *   Batch # may be blank.
 */
export const LIENPORT_HEADER = [
  'Cert #',
  'Tax Year',
  'County',
  'Parcel Number',
  'Status',
  'Face Amount',
  'Delinquent Tax',
  'Bid Rate %',
  'Sale Date',
  'Certificate Holder',
  'Struck To County',
  'Redeemed',
  'Redemption Date',
  'Redemption Amount',
  'Tax Deed App Date',
  'Owner Name',
  'Situs Address',
  'Legal Description',
  'Batch #',
] as const;

export const LIENPORT_STATUS: Readonly<Record<string, string>> = {
  sold: 'SOLD',
  redeemed: 'REDEEMED',
  available: 'OPEN',
  advertised: 'ADVERTISED',
  lands_available: 'LAND AVAILABLE',
  tax_deed_applied: 'TDA FILED',
  cancelled: 'CANCELLED',
};
