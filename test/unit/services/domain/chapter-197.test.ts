import { describe, expect, it } from 'vitest';
import { chapter197Problems, landsProblems, namesTheCounty } from '../../../../services/domain/chapter-197.ts';
import { CertificateRecord } from '../../../../services/domain/records.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/** A lawful certificate: tax year 2023, sold 2024-05-28 at 18%, unredeemed. */
const lawful = () => sampleCertificate({ sale_date: '2024-05-28', interest_rate: 18, face_amount: 1000, delinquent_amount: 920 });

function problemsOf(overrides: Partial<CertificateRecord>) {
  const candidate = { ...lawful(), ...overrides };
  const parsed = CertificateRecord.safeParse(candidate);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('chapter 197 rules in the canonical certificate schema', () => {
  it('accept a lawful certificate', () => {
    expect(chapter197Problems(lawful())).toEqual([]);
    expect(problemsOf({})).toEqual([]);
  });

  it('report, not throw, when a redeemed certificate has an amount with no quote (not whole cents)', () => {
    const redeemed = {
      ...lawful(),
      status: 'redeemed' as const,
      redeemed: true,
      redeemed_date: '2024-07-15',
      redemption_amount: 1050,
      face_amount: 1000.005,
    };
    const parsed = CertificateRecord.safeParse(redeemed);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toContain('face_amount: must be whole cents');
  });

  it('refuse a tax year sold in its own year or two years on, naming s. 197.432', () => {
    expect(problemsOf({ sale_date: '2023-06-01' })).toEqual([
      expect.stringMatching(/^sale_date: tax year 2023 certificates are sold in 2024.*s\. 197\.432/),
    ]);
    expect(problemsOf({ sale_date: '2024-03-31' })).toHaveLength(1);
    expect(problemsOf({ sale_date: '2025-05-28' })).toHaveLength(1);
    // A late roll moves the sale past June 1 lawfully ("whichever is later", s. 197.402(3)).
    expect(problemsOf({ sale_date: '2024-06-20' })).toEqual([]);
  });

  it('refuse a tax deed application before April 1 two years after the year of issuance (s. 197.502)', () => {
    const applied = { status: 'tax_deed_applied' as const };
    expect(problemsOf({ ...applied, tax_deed_application_date: '2024-11-30' })).toEqual([
      expect.stringMatching(/^tax_deed_application_date: .*from 2026-04-01 \(s\. 197\.502\(1\)\)/),
    ]);
    expect(problemsOf({ ...applied, tax_deed_application_date: '2026-03-31' })).toHaveLength(1);
    expect(problemsOf({ ...applied, tax_deed_application_date: '2026-04-01' })).toEqual([]);
  });

  it('refuse a redemption amount other than the quote on the redeemed date (s. 197.172, s. 197.402(3), s. 197.472)', () => {
    // Sold 2024-05-28, redeemed 2024-07-15: June and July of interest, 3% < the 5% minimum.
    const redeemed = { status: 'redeemed' as const, redeemed: true, redeemed_date: '2024-07-15' };
    expect(problemsOf({ ...redeemed, redemption_amount: 1049.99 })).toEqual([
      expect.stringMatching(
        /^redemption_amount: .*2 months of interest.*1050\.00 on 2024-07-15 \(s\. 197\.172, s\. 197\.402\(3\), s\. 197\.472\(2\)\); 1049\.99 is not that$/,
      ),
    ]);
    expect(problemsOf({ ...redeemed, redemption_amount: 1050 })).toEqual([]);
    // More is wrong too: the holder receives the quote, not what a feed adds (the $6.25 fee is the collector's).
    expect(problemsOf({ ...redeemed, redemption_amount: 1056.25 })).toHaveLength(1);
    // 0.25% bid: the 5% minimum still applies.
    expect(problemsOf({ ...redeemed, interest_rate: 0.25, redemption_amount: 1002.5 })).toHaveLength(1);
    expect(problemsOf({ ...redeemed, interest_rate: 0.25, redemption_amount: 1050 })).toEqual([]);
    // 0% bid: no interest and no minimum charge: exactly the face.
    expect(problemsOf({ ...redeemed, interest_rate: 0, redemption_amount: 1000 })).toEqual([]);
    expect(problemsOf({ ...redeemed, interest_rate: 0, redemption_amount: 999.99 })).toHaveLength(1);
    // Redeemed in May, before June of the sale year: no interest yet (s. 197.172(2)).
    expect(problemsOf({ ...redeemed, redeemed_date: '2024-05-30', redemption_amount: 1000 })).toEqual([]);
    // 18% from month 4: October is 5 months, 7.5%.
    expect(problemsOf({ ...redeemed, redeemed_date: '2024-10-31', redemption_amount: 1075 })).toEqual([]);
  });

  it('refuse a certificate struck to the county that is sold, advertised or held by a bidder (s. 197.432)', () => {
    const struck = { struck_to_county: true, interest_rate: 18, holder_name: 'Alachua County' };
    expect(problemsOf({ ...struck, status: 'sold' })).toEqual([
      expect.stringMatching(/^status: a certificate struck to the county .*status is sold/),
    ]);
    expect(problemsOf({ ...struck, status: 'advertised' })).toHaveLength(1);
    expect(problemsOf({ ...struck, status: 'available' })).toEqual([]);
    expect(problemsOf({ ...struck, status: 'available', holder_name: 'Acme Tax Fund LLC' })).toEqual([
      expect.stringMatching(/^holder_name: .*held by the county, Alachua County/),
    ]);
  });

  it('recognise the county however a portal spells it, and nothing else', () => {
    expect(namesTheCounty('Miami-Dade County', 'Miami-Dade')).toBe(true);
    expect(namesTheCounty('MIAMI-DADE COUNTY TAX COLLECTOR', 'Miami-Dade')).toBe(true);
    expect(namesTheCounty('Dade Capital LLC', 'Miami-Dade')).toBe(false);
    expect(namesTheCounty('St. Lucie County', 'St. Lucie')).toBe(true);
    expect(namesTheCounty('Orange Grove Lien Co LLC', 'Orange')).toBe(false);
    expect(namesTheCounty('COUNTY OF ORANGE', 'Orange')).toBe(true);
    expect(namesTheCounty('BROWARD BCC', 'Broward')).toBe(true);
    expect(namesTheCounty('Broward Tax Collector', 'Broward')).toBe(true);
  });

  it('refuse a lands-available record applied on before April 1 of tax year + 3 (s. 197.502)', () => {
    expect(landsProblems({ tax_year: 2020, tax_deed_application_date: '2023-04-01' })).toEqual([]);
    expect(landsProblems({ tax_year: 2020, tax_deed_application_date: '2023-01-10' })).toEqual([
      {
        field: 'tax_deed_application_date',
        problem: expect.stringMatching(/from 2023-04-01 \(s\. 197\.502\(1\)\); 2023-01-10 is earlier$/),
      },
    ]);
  });
});
