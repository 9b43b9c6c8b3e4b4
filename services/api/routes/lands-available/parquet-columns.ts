import { LANDS_COLUMNS } from './row.ts';
import type { TypedColumns } from '../../../bulk/write-files.ts';

/**
 * The lands-available row's Parquet types, in the row's order: typed like the certificate row's
 * columns of the same names (the record opens and closes with them), the opening bid as
 * DECIMAL(12,2) like the face amount (both whole cents of one parcel), dates as DATE.
 */
const TYPES: Record<string, string> = {
  tax_year: 'INTEGER',
  face_amount: 'DECIMAL(12,2)',
  opening_bid: 'DECIMAL(12,2)',
  tax_deed_application_date: 'DATE',
  available_since: 'DATE',
};

/** Every other column (ids, names, the address, the parcel URL, the constant status) is VARCHAR. */
export const LANDS_PARQUET: TypedColumns = LANDS_COLUMNS.map((c) => [c, TYPES[c] ?? 'VARCHAR'] as const);
