/**
 * parcels-csv: one county's assessment roll joined with its parcel centroids, one county per file
 * (the job's county; each row names it again by its revenue county number, which must agree).
 * - Comma CSV with the header below, LF or CRLF, fields quoted when they hold a comma, quote or
 *   line break; a final line break is not required.
 * - county_number: the Department of Revenue county number (11..77).
 * - just_value, land_sqft: whole non-negative integers (dollars, square feet), digits only.
 * - use_code: three digits (DOR land use code); homestead: Y or N.
 * - situs_city: text (stored upper case); situs_zip: five digits.
 * - lat, lon: decimal degrees (WGS84) of the parcel's centroid.
 */
export const PARCELS_FORMAT = 'parcels-csv';
export const PARCELS_HEADER = [
  'county_number',
  'parcel_id',
  'assessment_year',
  'just_value',
  'land_sqft',
  'use_code',
  'homestead',
  'situs_address',
  'situs_city',
  'situs_zip',
  'lat',
  'lon',
] as const;
