import { z } from 'zod';
import { countySlug, limit, multi, offset, taxYear, text } from '../../../params/common.ts';
import { hasContainsKey } from '../../../query/text.ts';

/** Orders of GET /analytics/holders; ties break on the group id. */
export const HOLDER_GROUP_SORTS = ['certificates_desc', 'face_desc', 'median_rate_asc', 'name_asc'] as const;
export type HolderGroupSort = (typeof HOLDER_GROUP_SORTS)[number];
export const DEFAULT_HOLDER_GROUP_SORT: HolderGroupSort = 'certificates_desc';

/**
 * The largest page: its groups' figures come from one search whose buckets grow with the page
 * (build-details.ts MAX_DETAIL_GROUPS), and every row reads all of its group's certificates,
 * so the page is sized to what one credit should buy, not to the lists' 500.
 */
export const MAX_GROUP_PAGE = 50;

/** GET /analytics/holders: the scope (county, tax year), a member-name match, an order and a page. */
export const HolderGroupsParams = z.strictObject({
  county: multi(countySlug)
    .optional()
    .describe(
      'County slug(s), e.g. miami-dade; repeat or separate with commas. Figures count only these counties; an unknown slug is a 400. The whole index and one county without tax_year are read from figures kept at ingest; any other scope (county x tax_year) is counted from the certificates, and one of more than 100,000 certificates (the default cap; 50,000 for sort=median_rate_asc) is a 400: narrow it here or with tax_year.',
    ),
  tax_year: multi(taxYear, 111)
    .optional()
    .describe('Tax year(s), e.g. 2023 or 2022,2023. Figures count only these years (see county for the scope cap).'),
  query: text(200)
    .refine(hasContainsKey, 'must contain at least one letter or digit')
    .optional()
    .describe(
      'Part of a member name, ignoring case, punctuation and "&" versus "and": groups with a member spelled so (e.g. "tax lien fund"). The figures still count the whole group.',
    ),
  sort: z
    .enum(HOLDER_GROUP_SORTS, `must be one of ${HOLDER_GROUP_SORTS.join(', ')}`)
    .optional()
    .describe(
      'Order: certificates_desc (default), face_desc (face amount), median_rate_asc (lowest median rate first), name_asc. Ties break on the group id.',
    ),
  limit: limit(25, MAX_GROUP_PAGE),
  offset,
});
export type HolderGroupsParams = z.infer<typeof HolderGroupsParams>;
