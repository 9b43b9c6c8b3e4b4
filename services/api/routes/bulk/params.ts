import { z } from 'zod';
import { BULK_DATASETS, BULK_FORMATS, BULK_KINDS } from '../../../bulk/names.ts';
import { calendarDate, countySlug, limit, offset, taxYear } from '../../params/common.ts';

const since = z
  .union([calendarDate, z.iso.datetime({ offset: true })], 'must be a date (YYYY-MM-DD) or a date-time such as 2026-11-28T06:00:00Z')
  .optional()
  .describe('Only files written at or after this time (a date means its start, UTC): what changed since your last download.');

/** GET /bulk/files: the manifest, filtered. Every value that names nothing is a 400 naming it. */
export const BulkFilesParams = z.strictObject({
  dataset: z
    .enum(BULK_DATASETS, `must be one of ${BULK_DATASETS.join(', ')}`)
    .optional()
    .describe(`Only this dataset: ${BULK_DATASETS.join(', ')}.`),
  county: countySlug.optional().describe('Only the snapshots of this county (slug, e.g. miami-dade); an unknown slug is a 400.'),
  tax_year: taxYear.optional().describe('Only the snapshots of this tax year.'),
  format: z
    .enum(BULK_FORMATS, `must be one of ${BULK_FORMATS.join(', ')}`)
    .optional()
    .describe('Only files in this format: parquet, ndjson (gzipped) or csv (gzipped).'),
  kind: z
    .enum(BULK_KINDS, `must be one of ${BULK_KINDS.join(', ')}`)
    .optional()
    .describe('snapshot (every row of a county and tax year) or delta (one Florida day of changes).'),
  since,
  limit: limit(100),
  offset,
});
export type BulkFilesParams = z.infer<typeof BulkFilesParams>;

/** GET /bulk/files/{name}: checked against the names the service writes before any storage is asked. */
export const BulkFilePath = z.strictObject({
  name: z.string().describe('A file name as GET /api/v1/bulk/files lists it, such as certificates.miami-dade.2024.snapshot.parquet.'),
});

export const NoBulkQuery = z.strictObject({});
