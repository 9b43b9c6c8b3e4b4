import { z } from 'zod';
import type { CertificateInput, RowProblem } from '../adapters/types.ts';
import { FileRejectedError } from '../errors.ts';
import { type Built, schemaProblems } from '../load/two-pass-load.ts';
import { countyHolderName, describeCountyRef, describeJobCounty, parcelUrl } from '../../services/domain/county-facts.ts';
import { certificateId, type HolderIds, normalizeKey } from '../../services/domain/ids.ts';
import { CertificateRecord, MAX_INTEREST_RATE } from '../../services/domain/records.ts';
import type { RegistryCounty } from '../../services/domain/registry.ts';

export interface BuildContext {
  county: RegistryCounty;
  /** Every county, to name the one a wrong-county row points at. */
  counties: readonly RegistryCounty[];
  taxYear: number;
  /** certificate.vendor: a platform code or tax_collector. */
  vendor: string;
  parcelBaseUrl: string;
  /** ISO timestamp stamped on every record of one run. */
  ingestedAt: string;
  /** holderId with a per-job memory (createHolderIds). */
  holderIds: HolderIds;
}

/**
 * The record schema compiled once into straight-line code (zod's AOT compiler; the very schema,
 * refinements and messages included, which falls back to the runtime parser for anything it cannot
 * model). Parsed by the runtime walker it was a fifth of pass 1's CPU: 5-6 us per row against 1.5-2.
 */
export const CompiledCertificateRecord = z.compile(CertificateRecord);

function matchesCounty(ref: string, county: RegistryCounty): boolean {
  const r = ref
    .trim()
    .toLowerCase()
    .replace(/\s+county$/, '');
  return (
    r === county.slug ||
    r === county.name.toLowerCase() ||
    r === county.fips ||
    r.padStart(2, '0') === county.dor ||
    r.replace(/[^a-z]/g, '') === county.slug.replace(/-/g, '')
  );
}

/**
 * A required field: null is a problem, unless the adapter already said why it is null. A function
 * of its own, not a closure made per row: tsx names every closure it compiles (keepNames), and
 * making and naming one per row cost about 0.3 us of it.
 */
function need<T>(reasons: RowProblem[], adapterReasons: readonly RowProblem[], name: string, value: T | null): T | null {
  if (value === null && !adapterReasons.some((r) => r.field === name)) reasons.push({ field: name, problem: 'required' });
  return value;
}

/**
 * Turns an adapter's input into a canonical certificate, or lists every reason it
 * cannot be one. A row naming another county rejects the whole file: that is a
 * file sent to the wrong job, not one bad row.
 */
export function buildCertificate(input: CertificateInput, adapterReasons: RowProblem[], ctx: BuildContext): Built<CertificateRecord> {
  if (input.county_ref !== null && !matchesCounty(input.county_ref, ctx.county))
    throw new FileRejectedError(
      'wrong_county',
      `file names county ${describeCountyRef(input.county_ref, ctx.counties)} but the job is for ${describeJobCounty(ctx.county)}`,
    );

  const reasons = [...adapterReasons];
  const certificateNumber = need(reasons, adapterReasons, 'certificate_number', input.certificate_number);
  const parcelId = need(reasons, adapterReasons, 'parcel_id', input.parcel_id);
  const status = need(reasons, adapterReasons, 'status', input.status);
  const taxYear = input.tax_year ?? ctx.taxYear;
  if (taxYear !== ctx.taxYear) reasons.push({ field: 'tax_year', problem: `${taxYear} does not match the job's tax year ${ctx.taxYear}` });

  const unsold = status === 'available' || status === 'advertised';
  const struck = input.struck_to_county ?? false;
  const countyHeld = struck || unsold;
  const holderName = input.holder_name ?? (countyHeld ? countyHolderName(ctx.county.name) : null);
  const interestRate = input.interest_rate ?? (countyHeld ? MAX_INTEREST_RATE : null);
  need(reasons, adapterReasons, 'holder_name', holderName);
  need(reasons, adapterReasons, 'interest_rate', interestRate);
  need(reasons, adapterReasons, 'sale_date', input.sale_date);
  need(reasons, adapterReasons, 'face_amount', input.face_amount);
  need(reasons, adapterReasons, 'delinquent_amount', input.delinquent_amount);
  need(reasons, adapterReasons, 'owner_name', input.owner_name);
  need(reasons, adapterReasons, 'site_address_full', input.site_address_full);
  if (reasons.length > 0 || certificateNumber === null || parcelId === null) return { ok: false, reasons };

  const candidate = {
    id: certificateId(ctx.county.slug, taxYear, certificateNumber),
    certificate_number: certificateNumber,
    certificate_number_normalized: normalizeKey(certificateNumber),
    county_slug: ctx.county.slug,
    county_name: ctx.county.name,
    parcel_id: parcelId,
    parcel_id_normalized: normalizeKey(parcelId),
    tax_year: taxYear,
    status,
    face_amount: input.face_amount,
    delinquent_amount: input.delinquent_amount,
    interest_rate: interestRate,
    sale_date: input.sale_date,
    holder_id: ctx.holderIds(holderName ?? ''),
    holder_name: holderName,
    struck_to_county: struck,
    vendor: ctx.vendor,
    redeemed: input.redeemed ?? status === 'redeemed',
    redeemed_date: input.redeemed_date,
    redemption_amount: input.redemption_amount,
    tax_deed_application_date: input.tax_deed_application_date,
    owner_name: input.owner_name,
    site_address_full: input.site_address_full,
    legal_description: input.legal_description,
    batch_number: input.batch_number,
    parcel_url: parcelUrl(ctx.parcelBaseUrl, ctx.county.slug, parcelId),
    ingested_at: ctx.ingestedAt,
  };
  const parsed = CompiledCertificateRecord.safeParse(candidate);
  if (parsed.success) return { ok: true, record: parsed.data };
  return { ok: false, reasons: schemaProblems(parsed.error.issues) };
}
