import { z } from 'zod';

/**
 * What the parcel layer knows of a parcel (the county's assessment roll joined with the
 * parcel's centroid) and how a certificate document carries it. The certificate row of the
 * spec never shows these fields; `expand=parcel` adds them as one `parcel` object, and the
 * geo and parcel filters read the document's flat copies (flat, so the worker's own
 * percolation can judge the plain ones without the engine).
 */
export const ParcelFacts = z.object({
  assessment_year: z.number().int().describe('Assessment roll year the facts come from.'),
  just_value: z.number().int().nonnegative().describe('Just (market) value on the roll, whole US dollars.'),
  land_sqft: z.number().int().nonnegative().describe('Land area in square feet.'),
  use_code: z.string().describe('Department of Revenue land use code, three digits (001 single family, 000 vacant residential, ...).'),
  homestead: z.boolean().describe('True when the parcel has a homestead exemption on the roll.'),
  situs_address: z.string().describe('Situs address on the roll.'),
  situs_city: z.string().describe('Situs city on the roll, upper case.'),
  situs_zip: z.string().describe('Situs ZIP code on the roll, five digits.'),
  lat: z.number().describe('Latitude of the parcel centroid (WGS84).'),
  lon: z.number().describe('Longitude of the parcel centroid (WGS84).'),
});
export type ParcelFacts = z.infer<typeof ParcelFacts>;

/**
 * The index-only fields of a certificate document. owner_type, situs_city and situs_zip are
 * set on every certificate (city and ZIP from the parcel roll when the certificate has a parcel
 * row, else from its situs address when that names them); the rest only when the certificate's
 * county and parcel id have a parcel row, so a certificate without one has no location.
 */
export interface CertificateParcelFields {
  owner_type: OwnerType;
  situs_city?: string;
  situs_zip?: string;
  location?: { lat: number; lon: number };
  just_value?: number;
  land_sqft?: number;
  use_code?: string;
  homestead?: boolean;
  assessment_year?: number;
  parcel_address?: string;
}

export const OWNER_TYPES = ['entity', 'person'] as const;
export type OwnerType = (typeof OWNER_TYPES)[number];

/** The parcel-roll fields a certificate document copies from its parcel row. */
export const PARCEL_DOCUMENT_FIELDS = [
  'location',
  'just_value',
  'land_sqft',
  'use_code',
  'homestead',
  'assessment_year',
  'parcel_address',
  'situs_city',
  'situs_zip',
] as const;

/** A parcel row's facts as a certificate document's fields. */
export function parcelDocumentFields(p: ParcelFacts): Omit<Required<CertificateParcelFields>, 'owner_type'> {
  return {
    location: { lat: p.lat, lon: p.lon },
    just_value: p.just_value,
    land_sqft: p.land_sqft,
    use_code: p.use_code,
    homestead: p.homestead,
    assessment_year: p.assessment_year,
    parcel_address: p.situs_address,
    situs_city: p.situs_city,
    situs_zip: p.situs_zip,
  };
}

/** The `parcel` object of `expand=parcel`: null when the certificate has no parcel row. */
export function parcelFactsOfDocument(doc: Partial<CertificateParcelFields>): ParcelFacts | null {
  if (doc.location === undefined || doc.just_value === undefined) return null;
  return {
    assessment_year: doc.assessment_year ?? 0,
    just_value: doc.just_value,
    land_sqft: doc.land_sqft ?? 0,
    use_code: doc.use_code ?? '',
    homestead: doc.homestead ?? false,
    situs_address: doc.parcel_address ?? '',
    situs_city: doc.situs_city ?? '',
    situs_zip: doc.situs_zip ?? '',
    lat: doc.location.lat,
    lon: doc.location.lon,
  };
}
