import { CERTIFICATE_COLUMNS } from '../domain/certificate-row.ts';
import type { TypedColumns } from './write-files.ts';

/**
 * The certificate row's Parquet types, in the row's order: dates as DATE, money as
 * DECIMAL(12,2) (amounts are whole cents), redeemed as BOOLEAN, tax_year as INTEGER. The
 * bid rate is a DOUBLE: the record schema allows any rate from 0 to 18, and a county
 * writing 17.875 must not be rounded; a double holds such rates exactly. DuckDB marks every column
 * optional; only redeemed_date, redemption_amount and tax_deed_application_date ever hold
 * nulls (spec 2.2). A unit test keeps this list in step with the row schema.
 */
const TYPES: Record<(typeof CERTIFICATE_COLUMNS)[number], string> = {
  id: 'VARCHAR',
  certificate_number: 'VARCHAR',
  county_slug: 'VARCHAR',
  county_name: 'VARCHAR',
  parcel_id: 'VARCHAR',
  tax_year: 'INTEGER',
  status: 'VARCHAR',
  face_amount: 'DECIMAL(12,2)',
  delinquent_amount: 'DECIMAL(12,2)',
  interest_rate: 'DOUBLE',
  sale_date: 'DATE',
  holder_id: 'VARCHAR',
  holder_name: 'VARCHAR',
  vendor: 'VARCHAR',
  redeemed: 'BOOLEAN',
  redeemed_date: 'DATE',
  redemption_amount: 'DECIMAL(12,2)',
  tax_deed_application_date: 'DATE',
  owner_name: 'VARCHAR',
  site_address_full: 'VARCHAR',
  parcel_url: 'VARCHAR',
};

export const CERTIFICATE_PARQUET: TypedColumns = CERTIFICATE_COLUMNS.map((c) => [c, TYPES[c]] as const);
