import { describeCountyRef } from '../../services/domain/county-facts.ts';
import { type CountyCentroid, distanceKm, FLORIDA_EXTENT, inFlorida, parcelRadiusKm } from '../../services/domain/county-centroids.ts';
import { normalizeKey } from '../../services/domain/ids.ts';
import { parcelDocId, ParcelRecord } from '../../services/domain/parcel-record.ts';
import type { RegistryCounty } from '../../services/domain/registry.ts';
import { normalizeCity } from '../../services/domain/situs-address.ts';
import type { ParcelAdapted } from '../adapters/parcels-csv.ts';
import { ROW, type RowProblem } from '../adapters/types.ts';
import { type Built, schemaProblems } from '../load/two-pass-load.ts';

/** The builder of parcels-csv rows (adapters/parcels-csv.ts reads them). */

export interface ParcelBuildContext {
  county: RegistryCounty;
  counties: readonly RegistryCounty[];
  /** The county's interior point (services/domain/county-centroids.ts). */
  centroid: CountyCentroid;
  /** ISO timestamp stamped on every record of one load. */
  ingestedAt: string;
}

/**
 * An adapted row -> a parcel record, or every reason it cannot be one: a blank field, another
 * county's number, a centroid outside Florida or farther from the county's interior point than
 * its plausible radius (a wrong coordinate is never put on the map).
 */
export function buildParcelRecord(adapted: ParcelAdapted, ctx: ParcelBuildContext): Built<ParcelRecord> {
  const { input } = adapted;
  const reasons: RowProblem[] = [...adapted.reasons];
  if (!reasons.some((r) => r.field === ROW))
    for (const [name, value] of Object.entries(input))
      if (value === null && !reasons.some((r) => r.field === name)) reasons.push({ field: name, problem: 'required' });
  const { county } = ctx;
  if (input.county_number !== null && input.county_number.padStart(2, '0') !== county.dor)
    reasons.push({
      field: 'county_number',
      problem: `${describeCountyRef(input.county_number, ctx.counties)} is not this file's county ${county.name} (revenue county ${Number(county.dor)})`,
    });
  const { lat, lon, parcel_id: parcel } = input;
  if (lat !== null && lon !== null) {
    const point = { lat, lon };
    const e = FLORIDA_EXTENT;
    if (!inFlorida(point))
      reasons.push({
        field: 'location',
        problem: `${lat},${lon} is outside Florida (lat ${e.minLat}..${e.maxLat}, lon ${e.minLon}..${e.maxLon})`,
      });
    else {
      const km = distanceKm(ctx.centroid, point);
      const radius = parcelRadiusKm(county.slug);
      if (km > radius)
        reasons.push({
          field: 'location',
          problem: `${lat},${lon} is ${Math.round(km)} km from ${county.name} County's interior point, more than its ${radius} km`,
        });
    }
  }
  if (reasons.length > 0 || parcel === null || lat === null || lon === null) return { ok: false, reasons };

  const normalized = normalizeKey(parcel);
  const parsed = ParcelRecord.safeParse({
    id: parcelDocId(county.slug, normalized),
    county_slug: county.slug,
    county_name: county.name,
    parcel_id: parcel,
    parcel_id_normalized: normalized,
    assessment_year: input.assessment_year,
    just_value: input.just_value,
    land_sqft: input.land_sqft,
    use_code: input.use_code,
    homestead: input.homestead,
    situs_address: input.situs_address,
    situs_city: input.situs_city === null ? null : normalizeCity(input.situs_city),
    situs_zip: input.situs_zip,
    location: { lat, lon },
    ingested_at: ctx.ingestedAt,
  });
  if (parsed.success) return { ok: true, record: parsed.data };
  return { ok: false, reasons: schemaProblems(parsed.error.issues) };
}
