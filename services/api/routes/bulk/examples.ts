import type { BulkFile } from '../../../bulk/entry.ts';

/** The OpenAPI examples of the bulk routes: one entry of each kind, as the builder writes them. */
export const BULK_FILE_EXAMPLE: BulkFile = {
  name: 'certificates.miami-dade.2024.snapshot.parquet',
  dataset: 'certificates',
  kind: 'snapshot',
  county: 'miami-dade',
  tax_year: 2024,
  day: null,
  format: 'parquet',
  rows: 48211,
  bytes: 2_871_310,
  sha256: '9f2c4a1be0d6c3f35e8a7b61d2c09e4f7a3b5c6d8e9f0a1b2c3d4e5f6a7b8c9d',
  generated_at: '2026-11-28T06:10:00.000Z',
  through_event: 'evt_48211',
};

export const BULK_LIST_EXAMPLE = {
  data: [BULK_FILE_EXAMPLE],
  pagination: { limit: 100, offset: 0, total: 1, has_more: false },
  meta: { request_id: 'req_7QjW9pMj1gCGx3QC', dataset_status: 'live' },
};
