import { z } from 'zod';
import { countySlug, format, integer, limit, multi, offset, text } from '../../params/common.ts';
import { containsKey } from './contains.ts';

/** Sort values of spec 4.8 and the machine description; count_desc is certificates_desc. */
export const HOLDER_SORTS = ['face_desc', 'certificates_desc', 'count_desc', 'name_asc'] as const;
export type HolderSort = (typeof HOLDER_SORTS)[number];

/** GET /holders/search (spec 4.8). */
export const HoldersSearchParams = z.strictObject({
  query: text(200)
    .refine((q) => containsKey(q) !== '', 'must contain a letter or digit')
    .optional()
    .describe(
      'Part of a holder name, case-insensitive; punctuation, spacing and "&" versus "and" do not matter ' +
        '(e.g. "gulf coast" finds "Gulf Coast Lien Fund II, LLC").',
    ),
  county: multi(countySlug).optional().describe('County slug(s): holders active in any of these counties; repeat or separate with commas.'),
  min_certificates: integer(0).optional().describe('Only holders still holding at least this many certificates.'),
  sort: z
    .enum(HOLDER_SORTS, `must be one of ${HOLDER_SORTS.join(', ')}`)
    .optional()
    .describe(
      'Order: name_asc (default), face_desc (outstanding face amount), certificates_desc or count_desc ' +
        '(certificates still held). Ties break on the holder id.',
    ),
  limit: limit(25),
  offset,
  format,
});
export type HoldersSearchParams = z.infer<typeof HoldersSearchParams>;

export const HolderPath = z.strictObject({
  id: z.string().min(1, 'must not be empty').max(100, 'must be at most 100 characters').describe('Holder id, form hld_<id>.'),
});
export type HolderPath = z.infer<typeof HolderPath>;

/** GET /holders/{id} takes no query parameters. */
export const HolderParams = z.strictObject({});
