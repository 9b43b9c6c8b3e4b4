import { SALE_COLUMNS } from '../domain/sale-row.ts';
import type { TypedColumns } from './write-files.ts';

/**
 * The sale row's Parquet types, in the row's order: the first sale day as DATE, face values as
 * DECIMAL(15,2) (a county's whole sale, in cents, can pass DECIMAL(12,2)'s ten billion), counts as
 * INTEGER, the average rate as DOUBLE (an average has no fixed number of places).
 */
const TYPES: Record<string, string> = {
  id: 'VARCHAR',
  county_slug: 'VARCHAR',
  county_name: 'VARCHAR',
  tax_year: 'INTEGER',
  sale_date: 'DATE',
  vendor: 'VARCHAR',
  sale_url: 'VARCHAR',
  certificates_offered: 'INTEGER',
  certificates_sold: 'INTEGER',
  face_value_offered: 'DECIMAL(15,2)',
  face_value_sold: 'DECIMAL(15,2)',
  average_bid_rate: 'DOUBLE',
  struck_to_county: 'INTEGER',
  status: 'VARCHAR',
};

export const SALE_PARQUET: TypedColumns = SALE_COLUMNS.map((c) => [c, TYPES[c] ?? 'VARCHAR'] as const);
