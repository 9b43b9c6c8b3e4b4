import type { Readable } from 'node:stream';
import { FieldReader, parseYear, ROW_PROBLEM } from '../adapters/fields.ts';
import { readCsv } from '../adapters/read-csv.ts';
import type { RawRow } from '../adapters/types.ts';
import { parcelUrl } from '../../services/domain/county-facts.ts';
import { certificateId, normalizeKey } from '../../services/domain/ids.ts';
import { parseDollars } from '../normalize/money.ts';
import { LandsAvailableRecord } from '../../services/domain/records.ts';
import type { RegistryCounty } from '../../services/domain/registry.ts';
import type { DatasetBuilt } from '../two-pass-load.ts';

/**
 * lands-available-csv: a county clerk's "lands available for taxes" list, one
 * county per file (the county comes from the job, the file does not name it).
 * - Comma CSV with the header below, LF or CRLF, fields quoted when they hold a
 *   comma, quote or line break. Clerks' exports do not promise a final line
 *   break, so only an unclosed quote or a short last row mark a cut-off file.
 * - Money "$1,234.56"; dates MM/DD/YYYY.
 * - Tax Year is the tax year of the underlying certificate; a list mixes years.
 */
export const LANDS_FORMAT = 'lands-available-csv';
export const LANDS_HEADER = [
  'Certificate Number',
  'Parcel ID',
  'Tax Year',
  'Face Amount',
  'Opening Bid',
  'Tax Deed Application Date',
  'Date Placed on List',
  'Owner',
  'Situs Address',
] as const;

/** What a row says, in canonical units (dollars, YYYY-MM-DD), not yet checked against each other. */
export interface LandsInput {
  certificate_number: string | null;
  parcel_id: string | null;
  tax_year: number | null;
  face_amount: number | null;
  opening_bid: number | null;
  tax_deed_application_date: string | null;
  available_since: string | null;
  owner_name: string | null;
  site_address_full: string | null;
}

export interface LandsAdapted {
  input: LandsInput;
  reasons: string[];
}

export interface LandsBuildContext {
  county: RegistryCounty;
  parcelBaseUrl: string;
  /** ISO timestamp stamped on every record of one load. */
  ingestedAt: string;
}

const EMPTY: LandsInput = {
  certificate_number: null,
  parcel_id: null,
  tax_year: null,
  face_amount: null,
  opening_bid: null,
  tax_deed_application_date: null,
  available_since: null,
  owner_name: null,
  site_address_full: null,
};

export function readLandsRows(source: Readable): AsyncIterable<RawRow> {
  return readCsv(source, { format: LANDS_FORMAT, delimiter: ',', header: LANDS_HEADER, requireFinalNewline: false });
}

export function toLandsInput(row: RawRow): LandsAdapted {
  const problem = row.fields[ROW_PROBLEM];
  if (problem !== undefined) return { input: { ...EMPTY }, reasons: [`row: ${problem}`] };
  const f = new FieldReader(row.fields);
  const input: LandsInput = {
    certificate_number: f.text('Certificate Number'),
    parcel_id: f.text('Parcel ID'),
    tax_year: f.parse('tax_year', 'Tax Year', parseYear),
    face_amount: f.parse('face_amount', 'Face Amount', parseDollars),
    opening_bid: f.parse('opening_bid', 'Opening Bid', parseDollars),
    tax_deed_application_date: f.date('tax_deed_application_date', 'Tax Deed Application Date', 'MM/DD/YYYY'),
    available_since: f.date('available_since', 'Date Placed on List', 'MM/DD/YYYY'),
    owner_name: f.text('Owner'),
    site_address_full: f.text('Situs Address'),
  };
  return { input, reasons: f.reasons };
}

/**
 * An adapted row -> a lands-available record, or every reason it cannot be one.
 * The id is the certificateId of the underlying certificate, so the record and
 * its certificate share one cert_ id.
 */
export function buildLandsRecord(adapted: LandsAdapted, ctx: LandsBuildContext): DatasetBuilt<LandsAvailableRecord> {
  const { input } = adapted;
  const reasons = [...adapted.reasons];
  if (!reasons.some((r) => r.startsWith('row:')))
    for (const [name, value] of Object.entries(input))
      if (value === null && !reasons.some((r) => r.startsWith(`${name}:`))) reasons.push(`${name}: required`);
  const { tax_deed_application_date: applied, available_since: since } = input;
  // A parcel reaches the list only after a holder applied for the tax deed.
  if (applied !== null && since !== null && since < applied)
    reasons.push(`available_since: ${since} is before tax_deed_application_date ${applied}`);
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
  return { ok: false, reasons: parsed.error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`) };
}
