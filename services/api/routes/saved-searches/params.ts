import { z } from 'zod';
import { controlCharacterProblem, limit, offset, text } from '../../params/common.ts';
import { acceptedJsonSchema } from '../../params/json-schema.ts';
import { embeddedJsonSchema, publishAs } from '../../params/published.ts';
import { CertificateSearchAnswer, CertificateSearchFilters } from '../certificates/params.ts';

/** GET /saved-searches: the calling client's saved searches, oldest first. */
export const SavedSearchesParams = z.strictObject({ limit: limit(100), offset });
export type SavedSearchesParams = z.infer<typeof SavedSearchesParams>;

export const SavedSearchPath = z.strictObject({
  id: z.string().describe("Saved search id, form ss_<id> (anything else, or another client's saved search, is a 404)."),
});
export type SavedSearchPath = z.infer<typeof SavedSearchPath>;

const name = text(120)
  .superRefine((value, ctx) => {
    const problem = controlCharacterProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('A name for you to recognise it by, 1-120 characters.');
/**
 * Validated as any object here: readSavedParams (read.ts) reads it with the search's own schema and
 * coercion, so each problem is named params.<name> in the search's words. Published as what that
 * reading accepts, filter by filter (params/json-schema.ts, as the search tool's arguments are).
 */
const params = publishAs(
  z
    .record(z.string(), z.unknown(), 'must be an object of /certificates/search parameters, e.g. {"county": "lee", "face_min": 2000}')
    .describe(
      'The filters of GET /api/v1/certificates/search, with the same names, values and rules: each value as JSON (a list as an array or comma-separated text, a number or boolean as itself or as text). sort, limit, offset, facets and format are not part of a saved search: give them to /matches. {} is the whole market.',
    ),
  () => acceptedJsonSchema(CertificateSearchFilters.shape, embeddedJsonSchema(CertificateSearchFilters, 'input')),
);

/** POST /saved-searches: params are read further by the search's own schema (write.ts). */
export const CreateSavedSearchBody = z.strictObject({ name, params });
export type CreateSavedSearchBody = z.infer<typeof CreateSavedSearchBody>;

/** PATCH /saved-searches/{id}: a new name, new filters (replacing the stored ones whole), or both. */
export const UpdateSavedSearchBody = z
  .strictObject({ name: name.optional(), params: params.optional() })
  .refine((b) => Object.keys(b).length > 0, 'must change at least one of name, params');
export type UpdateSavedSearchBody = z.infer<typeof UpdateSavedSearchBody>;

/** GET /saved-searches/{id}/matches: how to answer, never what to select (that is the saved search). */
export const SavedSearchMatchesParams = CertificateSearchAnswer;
export type SavedSearchMatchesParams = z.infer<typeof SavedSearchMatchesParams>;

/** The MCP tool takes the id and the answer's parameters in one object. */
export const SavedSearchMatchesOfParams = z.strictObject({ ...SavedSearchPath.shape, ...SavedSearchMatchesParams.shape });
export type SavedSearchMatchesOfParams = z.infer<typeof SavedSearchMatchesOfParams>;
