import { z } from 'zod';
import { boolean, countySlug, format, limit, offset, text } from '../../params/common.ts';

/** GET /sources (spec 4.11): one row per county and tax year. */
export const SourcesParams = z.strictObject({
  county: countySlug.optional().describe('County slug, e.g. miami-dade.'),
  vendor: text(80).optional().describe('Part of the vendor code, case-insensitive (e.g. "lien" finds lienport).'),
  source_kind: text(40).optional().describe('Exact source kind, e.g. cert_sale_portal or bulk_download.'),
  active: boolean.optional().describe('true: only active sources; false: only inactive ones.'),
  limit: limit(100),
  offset,
  format,
});
export type SourcesParams = z.infer<typeof SourcesParams>;

export const SourcesCountyPath = z.strictObject({ county: countySlug.describe('County slug, e.g. miami-dade.') });
export type SourcesCountyPath = z.infer<typeof SourcesCountyPath>;

/** GET /sources/{county}: every source of the county, paged like any list. */
export const SourcesCountyParams = z.strictObject({ limit: limit(100), offset, format });
export type SourcesCountyParams = z.infer<typeof SourcesCountyParams>;
