import { z } from 'zod';
import { CertificateStatus } from '../../../domain/records.ts';
import { boolean, calendarDate, countySlug, format, limit, money, multi, offset, rangeOrder, taxYear, text } from '../../params/common.ts';
import { hasContainsKey } from '../../query/text.ts';

/**
 * Parameters of every /certificates endpoint (spec 4.1-4.6 with the machine
 * description's extras). The same schemas are the MCP tools' input.
 */

/** Both published lists of sort values (sale_date_desc and sale_newest mean the same). */
export const CERTIFICATE_SORTS = ['relevance', 'face_desc', 'face_asc', 'year_newest', 'sale_date_desc', 'sale_newest'] as const;
export type CertificateSort = (typeof CERTIFICATE_SORTS)[number];

export const CERTIFICATE_FACETS = ['county', 'status', 'tax_year', 'vendor', 'redeemed'] as const;
export type CertificateFacet = (typeof CERTIFICATE_FACETS)[number];

const counties = multi(countySlug).describe(
  'County slug(s), e.g. miami-dade; repeat the parameter or separate with commas; GET /api/v1/counties lists the 67 slugs, and an unknown slug is a 400.',
);

/** What a search selects (a saved search stores exactly these): every filter, no order or page. */
const searchFilters = {
  query: text(200)
    .optional()
    .describe(
      'Free text, 1-200 characters: certificate number or parcel id (with or without dashes, dots, spaces), owner name (one typo tolerated per word), situs address or legal description. Case and accents never matter; every character is plain text. An exact certificate-number or parcel-id match ranks first.',
    ),
  county: counties.optional(),
  status: multi(CertificateStatus, 7)
    .optional()
    .describe('Status(es): available, advertised, sold, redeemed, lands_available, tax_deed_applied, cancelled.'),
  tax_year: multi(taxYear, 111).optional().describe('Tax year(s) the certificates were issued for, e.g. 2023 or 2022,2023.'),
  holder: text(200)
    .refine(hasContainsKey, 'must contain at least one letter or digit')
    .optional()
    .describe(
      'Holder name, contains match ignoring case, punctuation and "&" versus "and": a name taken from /holders lists every certificate of that holder.',
    ),
  vendor: multi(text(80), 20)
    .optional()
    .describe('Source vendor(s), matched as strings ignoring case (e.g. tax_collector, lienport); an unknown vendor matches nothing.'),
  face_min: money.optional().describe('Minimum face amount in US dollars, inclusive.'),
  face_max: money.optional().describe('Maximum face amount in US dollars, inclusive.'),
  sale_after: calendarDate.optional().describe('Sale date on or after this day (YYYY-MM-DD).'),
  sale_before: calendarDate.optional().describe('Sale date on or before this day (YYYY-MM-DD).'),
  redeemed: boolean.optional().describe('true: only redeemed certificates; false: only unredeemed ones.'),
  deed_eligible_by: calendarDate
    .optional()
    .describe(
      'Only certificates on which a tax deed application is allowed on or before this day (YYYY-MM-DD): from April 1 of the sale year + 2 (s. 197.502(1)). Combine with status=sold for those still outstanding.',
    ),
  expires_before: calendarDate
    .optional()
    .describe(
      'Only certificates that expire before this day (YYYY-MM-DD): neither redeemed nor cancelled, no tax deed application on record, and the sale date + 7 years earlier than this day (s. 197.482).',
    ),
};

/** How a selection is answered: order, facets, page and format (a saved search's /matches takes these). */
const searchAnswer = {
  sort: z
    .enum(CERTIFICATE_SORTS, `must be one of ${CERTIFICATE_SORTS.join(', ')}`)
    .optional()
    .describe(
      'Order: relevance (best text match first), face_desc, face_asc, year_newest (tax year, newest first), sale_date_desc or sale_newest (sale date, newest first). Default: relevance when query is given, otherwise sale_date_desc.',
    ),
  facets: multi(z.enum(CERTIFICATE_FACETS, `must be one of ${CERTIFICATE_FACETS.join(', ')}`), 5)
    .optional()
    .describe(
      'Fields to count over the whole filtered result: county, status, tax_year, vendor, redeemed. Each field counts with every filter but its own, so counts are what selecting that value would return.',
    ),
  limit: limit(25),
  offset,
  format,
};

const searchRanges = rangeOrder([
  ['face_min', 'face_max'],
  ['sale_after', 'sale_before'],
]);

export const CertificateSearchParams = z.strictObject({ ...searchFilters, ...searchAnswer }).superRefine(searchRanges);
export type CertificateSearchParams = z.infer<typeof CertificateSearchParams>;

/** The filters of a search alone, with the same rules: the params of a saved search. */
export const CertificateSearchFilters = z.strictObject(searchFilters).superRefine(searchRanges);
export type CertificateSearchFilters = z.infer<typeof CertificateSearchFilters>;
/** The search parameters that are not filters: what a saved search leaves to each /matches request. */
export const CERTIFICATE_ANSWER_PARAMS = Object.keys(searchAnswer) as (keyof typeof searchAnswer)[];
export const CertificateSearchAnswer = z.strictObject(searchAnswer);
export type CertificateSearchAnswer = z.infer<typeof CertificateSearchAnswer>;

/** A required string parameter whose absence is reported as "is required", not as a type error. */
function required<T extends z.ZodType<unknown, string>>(what: string, schema: T) {
  return z.string(`is required: ${what}`).pipe(schema);
}

export const ByParcelParams = z.strictObject({
  county: required('the county slug of the parcel, e.g. miami-dade', countySlug).describe(
    'County slug of the parcel (required), e.g. miami-dade.',
  ),
  parcel_id: required('the parcel id', text(60)).describe('Parcel id (required); dashes, dots and spaces do not matter.'),
  limit: limit(25),
  offset,
  format,
});
export type ByParcelParams = z.infer<typeof ByParcelParams>;

export const CountsParams = z.strictObject({
  county: countySlug.optional().describe('Count only this county (slug).'),
  tax_year: taxYear.optional().describe('Count only this tax year.'),
});
export type CountsParams = z.infer<typeof CountsParams>;

/** fields and freshness take no parameters; anything given is an unknown parameter (400). */
export const NoParams = z.strictObject({});
export type NoParams = z.infer<typeof NoParams>;

export const CertificateIdPath = z.strictObject({
  id: z.string().describe('Certificate id, form cert_<id> (anything else is a 404: no certificate has it).'),
});
export type CertificateIdPath = z.infer<typeof CertificateIdPath>;
