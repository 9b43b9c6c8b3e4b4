import { parcelUrl } from '../../services/domain/county-facts.ts';
import { certificateId, normalizeKey } from '../../services/domain/ids.ts';
import { LandsAvailableRecord } from '../../services/domain/records.ts';
import type { RegistryCounty } from '../../services/domain/registry.ts';
import type { LandsAdapted } from '../adapters/lands-available-csv.ts';
import { type Built, schemaProblems } from '../load/two-pass-load.ts';
import { ROW, type RowProblem } from '../adapters/types.ts';

/** The builder of lands-available-csv rows (adapters/lands-available-csv.ts reads them). */

export interface LandsBuildContext {
  county: RegistryCounty;
  parcelBaseUrl: string;
  /** ISO timestamp stamped on every record of one load. */
  ingestedAt: string;
}

/**
 * An adapted row -> a lands-available record, or every reason it cannot be one.
 * The id is the certificateId of the underlying certificate, so the record and
 * its certificate share one cert_ id.
 */
export function buildLandsRecord(adapted: LandsAdapted, ctx: LandsBuildContext): Built<LandsAvailableRecord> {
  const { input } = adapted;
  const reasons: RowProblem[] = [...adapted.reasons];
  if (!reasons.some((r) => r.field === ROW))
    for (const [name, value] of Object.entries(input))
      if (value === null && !reasons.some((r) => r.field === name)) reasons.push({ field: name, problem: 'required' });
  const { tax_deed_application_date: applied, available_since: since } = input;
  // A parcel reaches the list only after a holder applied for the tax deed.
  if (applied !== null && since !== null && since < applied)
    reasons.push({ field: 'available_since', problem: `${since} is before tax_deed_application_date ${applied}` });
  const { certificate_number: number, parcel_id: parcel, tax_year: year } = input;
  if (reasons.length > 0 || number === null || parcel === null || year === null) return { ok: false, reasons };

  const parsed = LandsAvailableRecord.safeParse({
    id: certificateId(ctx.county.slug, year, number),
    certificate_number: number,
    certificate_number_normalized: normalizeKey(number),
    county_slug: ctx.county.slug,
    county_name: ctx.county.name,
    parcel_id: parcel,
    parcel_id_normalized: normalizeKey(parcel),
    tax_year: year,
    status: 'lands_available',
    face_amount: input.face_amount,
    opening_bid: input.opening_bid,
    tax_deed_application_date: applied,
    available_since: since,
    owner_name: input.owner_name,
    site_address_full: input.site_address_full,
    parcel_url: parcelUrl(ctx.parcelBaseUrl, ctx.county.slug, parcel),
    ingested_at: ctx.ingestedAt,
  });
  if (parsed.success) return { ok: true, record: parsed.data };
  return { ok: false, reasons: schemaProblems(parsed.error.issues) };
}
