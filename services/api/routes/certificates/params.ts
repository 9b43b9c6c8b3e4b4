import { z } from 'zod';
import { OWNER_TYPES } from '../../../domain/parcel-facts.ts';
import { CertificateStatus } from '../../../domain/records.ts';
import {
  bidRate,
  boolean,
  calendarDate,
  countySlug,
  integer,
  limit,
  money,
  multi,
  offset,
  oneWord,
  rangeOrder,
  taxYear,
  text,
} from '../../params/common.ts';
import { readable, readBbox, readLatLon, readPolygon, readRadius } from '../../params/geo.ts';
import { hasContainsKey } from '../../query/text.ts';

/**
 * Parameters of every /certificates endpoint (spec 4.1-4.6 with the machine
 * description's extras). The same schemas are the MCP tools' input.
 */

/** Both published lists of sort values (sale_date_desc and sale_newest mean the same). */
export const CERTIFICATE_SORTS = [
  'relevance',
  'face_desc',
  'face_asc',
  'year_newest',
  'sale_date_desc',
  'sale_newest',
  'rate_asc',
  'rate_desc',
  'distance_asc',
] as const;
export type CertificateSort = (typeof CERTIFICATE_SORTS)[number];

export const CERTIFICATE_FACETS = ['county', 'status', 'tax_year', 'vendor', 'redeemed', 'holder_group'] as const;
export type CertificateFacet = (typeof CERTIFICATE_FACETS)[number];

const counties = multi(countySlug).describe(
  'County slug(s), e.g. miami-dade; repeat the parameter or separate with commas; GET /api/v1/counties lists the 67 slugs, and an unknown slug is a 400.',
);

/** A roll value in whole dollars (the roll has no cents). */
const justValue = integer(0, 100_000_000_000);

/**
 * Where a certificate's parcel is and what the parcel roll says of it (services/domain/parcel-facts.ts):
 * the filters certificate search, counts and the market analytics share. A certificate without a
 * parcel row has no location and no roll facts, so it never matches a geo filter or a roll filter
 * (homestead, just value, use code); city and ZIP may come from its situs address too.
 */
export const placeFilters = {
  bbox: readable(readBbox, 200)
    .optional()
    .describe(
      'Bounding box minLon,minLat,maxLon,maxLat in decimal degrees (GeoJSON order), such as -80.3,25.7,-80.1,25.9: certificates whose parcel centroid lies inside, edges included. A min above its max is a 400.',
    ),
  near: readable(readLatLon, 80)
    .optional()
    .describe(
      'A point lat,lon in decimal degrees, such as 26.1224,-80.1373: with radius, certificates whose parcel centroid is within radius of it (great-circle distance); sort=distance_asc orders by that distance. radius is required with near (no default distance).',
    ),
  radius: readable(readRadius, 40)
    .optional()
    .describe('Distance from near, with its unit m, km or mi (500m, 2km, 3mi), greater than 0 and at most 100km; only with near.'),
  polygon: readable(readPolygon, 8000)
    .optional()
    .describe(
      'A polygon lat,lon;lat,lon;... of 3 to 200 points, closed (last = first) or not: certificates whose parcel centroid lies inside. Edges are straight in longitude/latitude; no self-intersection check.',
    ),
  homestead: boolean
    .optional()
    .describe('true: only parcels with a homestead exemption on the roll; false: only parcels on the roll without one.'),
  just_value_min: justValue.optional().describe('Minimum just (market) value on the parcel roll, whole US dollars, inclusive.'),
  just_value_max: justValue.optional().describe('Maximum just (market) value on the parcel roll, whole US dollars, inclusive.'),
  use_code: multi(
    z
      .string()
      .trim()
      .regex(/^\d{3}$/, 'must be a Department of Revenue use code of three digits, such as 001 or 000')
      .register(oneWord, { noun: 'use code' }),
    100,
  )
    .optional()
    .describe('Department of Revenue land use code(s), three digits each, such as 001 (single family) or 000,001.'),
  zip: multi(
    z
      .string()
      .trim()
      .regex(/^\d{5}$/, 'must be a ZIP code of five digits, such as 33101')
      .register(oneWord, { noun: 'ZIP code' }),
    100,
  )
    .optional()
    .describe('Situs ZIP code(s), five digits, from the parcel roll or else the situs address.'),
  city: multi(
    text(60)
      .toUpperCase()
      .overwrite((c) => c.replace(/\s+/g, ' ')),
    100,
  )
    .optional()
    .describe('Situs city name(s), such as Fort Myers or MIAMI,HIALEAH: compared upper-cased with single spaces, whole name.'),
  owner_type: z
    .enum(OWNER_TYPES, `must be one of ${OWNER_TYPES.join(', ')}`)
    .optional()
    .describe(
      'entity (the owner name carries a legal form or an entity word: LLC, INC, TRUST, BANK, COUNTY, ... as the holder groups tell them) or person (every other name).',
    ),
};
export type PlaceFilters = { [K in keyof typeof placeFilters]?: z.output<(typeof placeFilters)[K]> };

/** The place filters' rules across parameters: radius goes with near, ranges in order. */
export function placeRules(value: PlaceFilters, ctx: z.RefinementCtx): void {
  if (value.radius !== undefined && value.near === undefined)
    ctx.addIssue({ code: 'custom', path: ['radius'], message: 'is only meaningful with near=lat,lon' });
  if (value.near !== undefined && value.radius === undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['radius'],
      message: 'is required with near: a distance such as 500m, 2km or 3mi (at most 100km)',
    });
  rangeOrder<PlaceFilters>([['just_value_min', 'just_value_max']])(value, ctx);
}

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
  holder_group: multi(
    z.string().regex(/^grp_[0-9a-f]{20}$/, 'must be a holder group id (grp_ and 20 hex digits), as /analytics/holders gives them'),
    20,
  )
    .optional()
    .describe(
      "Holder group id(s), as /analytics/holders and the holder_group facet give them: every certificate held by a member of the group (one fund family's numbered LLCs together).",
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
  rate_min: bidRate.optional().describe('Lowest winning bid rate, percent, inclusive, in quarter points (0, 0.25, ... 18).'),
  rate_max: bidRate.optional().describe('Highest winning bid rate, percent, inclusive, in quarter points (0, 0.25, ... 18).'),
  ...placeFilters,
};

export const CERTIFICATE_EXPANSIONS = ['parcel'] as const;
export type CertificateExpansion = (typeof CERTIFICATE_EXPANSIONS)[number];

const expand = multi(z.enum(CERTIFICATE_EXPANSIONS, `must be ${CERTIFICATE_EXPANSIONS.join(', ')} (the only expansion)`), 1)
  .optional()
  .describe(
    'parcel: each row gains a parcel object (assessment year, just value, land area, use code, homestead, situs address, city, ZIP, lat, lon), null when the certificate has no parcel row. In CSV its fields are the columns parcel_<field>.',
  );

/**
 * The certificate lists' formats: format=csv as every list has (Accept: text/csv works the same),
 * and geojson: a FeatureCollection whose features are the rows (geometry the parcel centroid, or
 * null without one), with pagination, facets and meta beside features as the JSON answer has them.
 */
const certificateFormat = z
  .enum(['json', 'csv', 'geojson'], 'must be json, csv or geojson')
  .optional()
  .describe(
    'json (default), csv, or geojson: a FeatureCollection (application/geo+json) of Point features [lon, lat] (geometry null for a certificate without a location) whose properties are the rows, with pagination and meta as foreign members.',
  );

/** The view of one certificate, as by-id takes it: expansion, and JSON or GeoJSON (one object is no CSV). */
export const CertificateView = z.strictObject({
  expand,
  format: z
    .enum(['json', 'geojson'], 'must be json or geojson')
    .optional()
    .describe(
      'json (default) or geojson: a FeatureCollection of the one certificate as a Point feature (geometry null without a location).',
    ),
});
export type CertificateView = z.infer<typeof CertificateView>;

/** How a selection is answered: order, facets, page and format (a saved search's /matches takes these). */
const searchAnswer = {
  sort: z
    .enum(CERTIFICATE_SORTS, `must be one of ${CERTIFICATE_SORTS.join(', ')}`)
    .optional()
    .describe(
      'Order: relevance (best text match first), face_desc, face_asc, year_newest (tax year, newest first), sale_date_desc or sale_newest (sale date, newest first), rate_asc or rate_desc (winning bid rate), distance_asc (nearest parcel centroid to near first; needs near, and pages within the first 10,000 rows). Default: relevance when query is given, otherwise sale_date_desc.',
    ),
  facets: multi(z.enum(CERTIFICATE_FACETS, `must be one of ${CERTIFICATE_FACETS.join(', ')}`), CERTIFICATE_FACETS.length)
    .optional()
    .describe(
      'Fields to count over the whole filtered result: county, status, tax_year, vendor, redeemed, holder_group (the 25 largest groups, each with its name as label). Each field counts with every filter but its own, so counts are what selecting that value would return.',
    ),
  limit: limit(25),
  offset,
  format: certificateFormat,
  expand,
};

const searchRanges = rangeOrder([
  ['face_min', 'face_max'],
  ['sale_after', 'sale_before'],
  ['rate_min', 'rate_max'],
]);

/** The filters' rules across parameters: ranges in order, radius with near. */
function filterRules(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  searchRanges(value, ctx);
  placeRules(value as PlaceFilters, ctx);
}

export const CertificateSearchParams = z.strictObject({ ...searchFilters, ...searchAnswer }).superRefine((value, ctx) => {
  filterRules(value, ctx);
  const problem = sortProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', path: ['sort'], message: problem });
});
export type CertificateSearchParams = z.infer<typeof CertificateSearchParams>;

/** distance_asc measures from near; without it there is nothing to measure from. /matches checks the same (read.ts). */
export function sortProblem(p: { sort?: CertificateSort; near?: string }): string | undefined {
  return p.sort === 'distance_asc' && p.near === undefined ? 'distance_asc needs near=lat,lon (and radius) to measure from' : undefined;
}

/** The most zoom a geotile key takes here: zoom 18 cells are about 150 m wide at the equator, finer than parcel centroids need. */
export const MAX_GEO_GRID_ZOOM = 18;

/** GET /certificates/geo-grid: a zoom and the search's filters. */
export const GeoGridParams = z
  .strictObject({
    zoom: integer(0, MAX_GEO_GRID_ZOOM).describe(
      'Map zoom 0-18 (required): the cells are the web map tiles z/x/y of that zoom, as a slippy map numbers them.',
    ),
    ...searchFilters,
  })
  .superRefine(filterRules);
export type GeoGridParams = z.infer<typeof GeoGridParams>;

/** The filters of a search alone, with the same rules: the params of a saved search. */
export const CertificateSearchFilters = z.strictObject(searchFilters).superRefine(filterRules);
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
  format: certificateFormat,
  expand,
});
export type ByParcelParams = z.infer<typeof ByParcelParams>;

export const CountsParams = z
  .strictObject({
    county: countySlug.optional().describe('Count only this county (slug).'),
    tax_year: taxYear.optional().describe('Count only this tax year.'),
    rate_min: searchFilters.rate_min,
    rate_max: searchFilters.rate_max,
    ...placeFilters,
  })
  .superRefine(filterRules);
export type CountsParams = z.infer<typeof CountsParams>;

/** fields and freshness take no parameters; anything given is an unknown parameter (400). */
export const NoParams = z.strictObject({});
export type NoParams = z.infer<typeof NoParams>;

export const CertificateIdPath = z.strictObject({
  id: z.string().describe('Certificate id, form cert_<id> (anything else is a 404: no certificate has it).'),
});
export type CertificateIdPath = z.infer<typeof CertificateIdPath>;

/** One certificate as the MCP tool asks for it: the path's id and the view's expansion in one object. */
export const CertificateByIdParams = z.strictObject({ ...CertificateIdPath.shape, expand });
export type CertificateByIdParams = CertificateIdPath & { expand?: CertificateExpansion[] };
