import { z } from 'zod';
import type { ParcelFacts } from './parcel-facts.ts';

/**
 * One parcel of a county's assessment roll joined with its centroid: a document of the parcels
 * index (mappings/parcels.json). Its id is `${county_slug}:${parcel_id_normalized}`, the key a
 * certificate of that county and parcel id finds it by.
 */
export const ParcelRecord = z.object({
  id: z.string().regex(/^[a-z][a-z-]+:[A-Z0-9]+$/),
  county_slug: z.string(),
  county_name: z.string(),
  parcel_id: z.string().trim().min(1).max(60),
  parcel_id_normalized: z.string().min(1),
  assessment_year: z.number().int().min(1990).max(2100),
  just_value: z.number().int().nonnegative().max(100_000_000_000),
  land_sqft: z.number().int().nonnegative().max(100_000_000_000),
  use_code: z.string().regex(/^\d{3}$/),
  homestead: z.boolean(),
  situs_address: z.string().trim().min(1).max(300),
  // Upper case with single spaces (normalizeCity), so the city filter's terms match whatever the roll's case.
  situs_city: z.string().min(1).max(60),
  situs_zip: z.string().regex(/^\d{5}$/),
  location: z.object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) }),
  ingested_at: z.iso.datetime(),
});
export type ParcelRecord = z.infer<typeof ParcelRecord>;

/** The parcels index id of a county's parcel (parcel id already normalized with normalizeKey). */
export function parcelDocId(countySlug: string, parcelIdNormalized: string): string {
  return `${countySlug}:${parcelIdNormalized}`;
}

/** What a certificate shows of its parcel (`expand=parcel`, parcelDocumentFields). */
export function parcelFactsOf(p: Pick<ParcelRecord, Exclude<keyof ParcelFacts, 'lat' | 'lon'> | 'location'>): ParcelFacts {
  return {
    assessment_year: p.assessment_year,
    just_value: p.just_value,
    land_sqft: p.land_sqft,
    use_code: p.use_code,
    homestead: p.homestead,
    situs_address: p.situs_address,
    situs_city: p.situs_city,
    situs_zip: p.situs_zip,
    lat: p.location.lat,
    lon: p.location.lon,
  };
}
