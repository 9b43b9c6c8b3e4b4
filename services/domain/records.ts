import { z } from 'zod';
import { chapter197Problems, landsProblems } from './chapter-197.ts';

/**
 * Canonical records: what every adapter's rows become before they are indexed.
 * The consistency rules of spec section 3 are part of the schema, so no record
 * that breaks them can reach an index.
 */

export const CERTIFICATE_STATUSES = [
  'available',
  'advertised',
  'sold',
  'redeemed',
  'lands_available',
  'tax_deed_applied',
  'cancelled',
] as const;
export const CertificateStatus = z.enum(CERTIFICATE_STATUSES);
export type CertificateStatus = z.infer<typeof CertificateStatus>;

export const SALE_STATUSES = ['scheduled', 'in_progress', 'completed'] as const;
export const SaleStatus = z.enum(SALE_STATUSES);
export type SaleStatus = z.infer<typeof SaleStatus>;

/** Bidding starts at 18 percent and goes down; 0 is a zero-interest bid. */
export const MAX_INTEREST_RATE = 18;

export const IsoDate = z.iso.date();
/** Money is kept in dollars with at most two decimals (whole cents). */
export const Money = z
  .number()
  .nonnegative()
  .max(1_000_000_000)
  .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, 'must be whole cents');
const Year = z.number().int().min(1990).max(2100);
const Text = z.string().trim().min(1).max(2000);

/**
 * One issue of a record's consistency rules. A function of its own, not a closure made in each
 * refinement: the refinement runs for every row, and tsx names each closure it makes (keepNames).
 */
function issue(ctx: z.RefinementCtx, path: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: [path], message });
}

export const CertificateRecord = z
  .object({
    id: z.string().regex(/^cert_[0-9a-f]{20}$/),
    certificate_number: Text.max(40),
    certificate_number_normalized: z.string().min(1),
    county_slug: z.string().regex(/^[a-z][a-z-]+$/),
    county_name: Text,
    parcel_id: Text.max(60),
    parcel_id_normalized: z.string().min(1),
    tax_year: Year,
    status: CertificateStatus,
    face_amount: Money,
    delinquent_amount: Money,
    interest_rate: z.number().min(0).max(MAX_INTEREST_RATE),
    sale_date: IsoDate,
    holder_id: z.string().regex(/^hld_[0-9a-f]{20}$/),
    holder_name: Text.max(200),
    /** Certificates no bidder took at the sale; the county holds them at 18 percent. */
    struck_to_county: z.boolean(),
    vendor: Text.max(80),
    redeemed: z.boolean(),
    redeemed_date: IsoDate.nullable(),
    redemption_amount: Money.nullable(),
    tax_deed_application_date: IsoDate.nullable(),
    owner_name: Text.max(300),
    site_address_full: Text.max(300),
    legal_description: z.string().max(4000).nullable(),
    batch_number: z.string().max(40).nullable(),
    parcel_url: z.url(),
    /** When this version of the record was indexed (ISO-8601). */
    ingested_at: z.iso.datetime(),
  })
  .superRefine((c, ctx) => {
    if (c.redeemed !== (c.status === 'redeemed')) issue(ctx, 'status', 'status is redeemed exactly when redeemed is true');
    if (c.redeemed) {
      if (c.redeemed_date === null) issue(ctx, 'redeemed_date', 'a redeemed certificate needs redeemed_date');
      if (c.redemption_amount === null) issue(ctx, 'redemption_amount', 'a redeemed certificate needs redemption_amount');
      if (c.redeemed_date !== null && c.redeemed_date < c.sale_date) issue(ctx, 'redeemed_date', 'redeemed before the sale date');
    } else {
      if (c.redeemed_date !== null) issue(ctx, 'redeemed_date', 'must be null while unredeemed');
      if (c.redemption_amount !== null) issue(ctx, 'redemption_amount', 'must be null while unredeemed');
    }
    if ((c.status === 'tax_deed_applied' || c.status === 'lands_available') && c.tax_deed_application_date === null)
      issue(ctx, 'tax_deed_application_date', `status ${c.status} needs tax_deed_application_date`);
    if (c.tax_deed_application_date !== null && c.tax_deed_application_date < c.sale_date)
      issue(ctx, 'tax_deed_application_date', 'tax deed application before the sale date');
    if (c.struck_to_county && c.interest_rate !== MAX_INTEREST_RATE)
      issue(ctx, 'interest_rate', 'a certificate struck to the county carries 18');
    // Rules of chapter 197 no real record breaks, each naming its statute (chapter-197.ts).
    for (const p of chapter197Problems(c)) issue(ctx, p.field, p.problem);
  });
export type CertificateRecord = z.infer<typeof CertificateRecord>;

export const CertificateSaleRecord = z.object({
  id: z.string().regex(/^csale_[0-9a-f]{20}$/),
  county_slug: z.string(),
  county_name: z.string(),
  tax_year: Year,
  /** First day of the county's sale. */
  sale_date: IsoDate,
  /**
   * Last day of the sale. With sale_date it decides the status on the day a sale
   * is read (the API derives it then); status below is the one seen at ingest.
   */
  last_sale_date: IsoDate,
  vendor: z.string(),
  /** The platform's sale page; null for a tax collector's own sale, whose URL we do not invent. */
  sale_url: z.url().nullable(),
  certificates_offered: z.number().int().nonnegative(),
  certificates_sold: z.number().int().nonnegative(),
  face_value_offered: Money,
  face_value_sold: Money,
  average_bid_rate: z.number().min(0).max(MAX_INTEREST_RATE),
  struck_to_county: z.number().int().nonnegative(),
  status: SaleStatus,
  updated_at: z.iso.datetime(),
});
export type CertificateSaleRecord = z.infer<typeof CertificateSaleRecord>;

export const HolderRecord = z.object({
  id: z.string().regex(/^hld_[0-9a-f]{20}$/),
  name: Text.max(200),
  normalized_name: z.string().min(1),
  certificate_count: z.number().int().nonnegative(),
  outstanding_face_amount: Money,
  counties: z.array(z.string()),
  first_seen_tax_year: Year,
  last_seen_tax_year: Year,
  updated_at: z.iso.datetime(),
});
export type HolderRecord = z.infer<typeof HolderRecord>;

export const LandsAvailableRecord = z
  .object({
    id: z.string().regex(/^cert_[0-9a-f]{20}$/),
    certificate_number: Text.max(40),
    certificate_number_normalized: z.string().min(1),
    county_slug: z.string(),
    county_name: z.string(),
    parcel_id: Text.max(60),
    parcel_id_normalized: z.string().min(1),
    tax_year: Year,
    status: z.literal('lands_available'),
    face_amount: Money,
    opening_bid: Money,
    tax_deed_application_date: IsoDate,
    available_since: IsoDate,
    owner_name: Text.max(300),
    site_address_full: Text.max(300),
    parcel_url: z.url(),
    ingested_at: z.iso.datetime(),
  })
  .superRefine((l, ctx) => {
    for (const p of landsProblems(l)) ctx.addIssue({ code: 'custom', path: [p.field], message: p.problem });
  });
export type LandsAvailableRecord = z.infer<typeof LandsAvailableRecord>;
