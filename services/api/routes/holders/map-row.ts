import type { HolderRecord } from '../../../domain/records.ts';
import { HOLDER_COLUMNS, type HolderRow } from './row.ts';

export type HolderDocument = Omit<HolderRecord, 'updated_at'>;

/** Every stored field a row shows, nothing else (updated_at stays in the index). */
export const HOLDER_SOURCE = HOLDER_COLUMNS;

/** The one holder mapper: exactly the fields of spec 2.4 (updated_at stays in the index). */
export function mapHolderRow(doc: HolderDocument): HolderRow {
  return {
    id: doc.id,
    name: doc.name,
    normalized_name: doc.normalized_name,
    certificate_count: doc.certificate_count,
    outstanding_face_amount: doc.outstanding_face_amount,
    counties: doc.counties,
    first_seen_tax_year: doc.first_seen_tax_year,
    last_seen_tax_year: doc.last_seen_tax_year,
  };
}
