import { z } from 'zod';
import { listResponse, objectResponse } from '../../envelope.ts';
import { embeddedJsonSchema, publishAs } from '../../params/published.ts';
import { CertificateSearchFilters } from '../certificates/params.ts';

/** A saved search as its client reads it. */
export const SavedSearchRow = z
  .object({
    id: z.string().describe('Saved search id, ss_<id>.'),
    name: z.string().describe('Its name.'),
    // Published as the filters the search's schema reads them into (params.ts says why the schema is a record).
    params: publishAs(
      z
        .record(z.string(), z.unknown())
        .describe(
          'The /certificates/search filters it selects, as the search reads them (lists as arrays, amounts and years as numbers); {} is the whole market.',
        ),
      () => embeddedJsonSchema(CertificateSearchFilters, 'output'),
    ),
    created_at: z.string().describe('When it was created (ISO-8601).'),
    updated_at: z.string().describe('When its name or params last changed (ISO-8601).'),
  })
  .strict();
export type SavedSearchRow = z.infer<typeof SavedSearchRow>;

/** The answers the document names (routes/named-schemas.ts). */
export const SavedSearchList = listResponse(SavedSearchRow);
export const SavedSearchResponse = objectResponse(SavedSearchRow);
