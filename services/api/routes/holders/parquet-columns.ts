import { HOLDER_COLUMNS } from './row.ts';
import type { TypedColumns } from '../../../bulk/write-files.ts';

/**
 * The holder row's Parquet types, in the row's order: counts and years as INTEGER, the
 * outstanding face as DECIMAL(15,2) (whole cents, and one holder's face across the state can pass
 * DECIMAL(12,2)'s ten billion), the counties as a list of slugs (VARCHAR[]), the names as VARCHAR.
 */
const TYPES: Record<string, string> = {
  id: 'VARCHAR',
  name: 'VARCHAR',
  normalized_name: 'VARCHAR',
  certificate_count: 'INTEGER',
  outstanding_face_amount: 'DECIMAL(15,2)',
  counties: 'VARCHAR[]',
  first_seen_tax_year: 'INTEGER',
  last_seen_tax_year: 'INTEGER',
};

export const HOLDER_PARQUET: TypedColumns = HOLDER_COLUMNS.map((c) => [c, TYPES[c] ?? 'VARCHAR'] as const);
