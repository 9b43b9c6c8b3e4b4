import { countyHolderName } from './county-facts.ts';
import { quoteAmounts } from './redemption-quote.ts';

/**
 * Rules of Florida Statutes chapter 197 that no real certificate can break.
 * The canonical record schema (records.ts) runs them, so a row that breaks one
 * is quarantined with the rule named. Only what the law makes impossible is
 * here; what is merely unusual (a sale after June 1 when the roll came late, a
 * redemption after 7 years when a bankruptcy stay tolled the term) stays lawful.
 *
 *  - Sale: taxes of year Y become delinquent on April 1 of Y+1 (s. 197.333), and
 *    the certificates are sold at that year's sale, which must start by June 1
 *    or the 60th day after delinquency, whichever is later (s. 197.402(3),
 *    s. 197.432). So the sale date lies in Y+1, on or after April 1. The
 *    "whichever is later" is why June 1 is not a hard upper bound here.
 *  - Tax deed application: not before 2 years have elapsed since April 1 of the
 *    year of issuance (s. 197.502(1)); the certificate is issued at the sale, and
 *    a county-held certificate bought later keeps its issue date (s. 197.4725(6)).
 *  - Redemption: the holder receives exactly the quote's holder_amount on the
 *    redeemed date (redemption-quote.ts: interest by calendar month from June of
 *    the sale year, never less than the 5 percent mandatory charge except on a
 *    0 percent bid, s. 197.172, s. 197.402(3), s. 197.472).
 *    The generator computes redemption_amount with the same function, so the
 *    API's quote on a redeemed certificate's day is what was paid
 *    (docs/decisions.md, "One redemption rule").
 *  - Struck to the county: with no bidder, the certificate is issued to the
 *    county (s. 197.432): it was not sold to a bidder, is no longer merely
 *    advertised, and its holder is the county. A county-held certificate bought
 *    later (s. 197.4725) is a new holder's certificate, not a struck one.
 */

export interface Chapter197Problem {
  field: 'sale_date' | 'tax_deed_application_date' | 'redemption_amount' | 'status' | 'holder_name';
  problem: string;
}

/** The fields the rules read (a subset of the canonical certificate record). */
export interface Chapter197Facts {
  tax_year: number;
  sale_date: string;
  tax_deed_application_date: string | null;
  face_amount: number;
  interest_rate: number;
  redemption_amount: number | null;
  redeemed_date: string | null;
  struck_to_county: boolean;
  status: string;
  holder_name: string;
  county_name: string;
}

const loose = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Words with which a portal names the county as a holder, beside the county's name. */
const COUNTY_WORDS = [' county ', ' tax collector ', ' bcc ', ' commissioners '];

/**
 * Does a holder name name the county itself ("Miami-Dade County", "MIAMI-DADE COUNTY TAX
 * COLLECTOR", "COUNTY OF ORANGE", "BROWARD BCC")? The county's name alone is not enough:
 * "ORANGE GROVE LIEN CO LLC" is a bidder.
 */
export function namesTheCounty(holderName: string, countyName: string): boolean {
  const holder = ` ${loose(holderName)} `;
  return holder.includes(` ${loose(countyName)} `) && COUNTY_WORDS.some((w) => holder.includes(w));
}

/**
 * A lands-available record carries the tax year of its certificate but not the
 * certificate's issue date; the certificate was issued at the sale of tax year + 1,
 * so its deed application is from April 1 of tax year + 3 (s. 197.502(1)).
 * Escheat after 3 years on the list (s. 197.502(8)) depends on the day the list is
 * read, not on the record: the generator and check:data enforce it.
 */
export function landsProblems(l: { tax_year: number; tax_deed_application_date: string }): Chapter197Problem[] {
  const earliest = `${l.tax_year + 3}-04-01`;
  if (l.tax_deed_application_date >= earliest) return [];
  return [
    {
      field: 'tax_deed_application_date',
      problem: `a tax year ${l.tax_year} certificate (sold in ${l.tax_year + 1}) allows a tax deed application from ${earliest} (s. 197.502(1)); ${l.tax_deed_application_date} is earlier`,
    },
  ];
}

export function chapter197Problems(c: Chapter197Facts): Chapter197Problem[] {
  const problems: Chapter197Problem[] = [];
  const saleYear = c.tax_year + 1;
  if (c.sale_date < `${saleYear}-04-01` || c.sale_date > `${saleYear}-12-31`)
    problems.push({
      field: 'sale_date',
      problem: `tax year ${c.tax_year} certificates are sold in ${saleYear}, after the taxes become delinquent on April 1 (s. 197.333, s. 197.402(3), s. 197.432); ${c.sale_date} is not`,
    });

  if (c.tax_deed_application_date !== null) {
    const earliest = `${Number(c.sale_date.slice(0, 4)) + 2}-04-01`;
    if (c.tax_deed_application_date < earliest)
      problems.push({
        field: 'tax_deed_application_date',
        problem: `a tax deed application may be made only after 2 years from April 1 of the year of issuance, from ${earliest} (s. 197.502(1)); ${c.tax_deed_application_date} is earlier`,
      });
  }

  if (c.redemption_amount !== null && c.redeemed_date !== null && c.redeemed_date >= c.sale_date) {
    const problem = redemptionProblem({ ...c, redemption_amount: c.redemption_amount, redeemed_date: c.redeemed_date });
    if (problem !== null) problems.push({ field: 'redemption_amount', problem });
  }

  if (c.struck_to_county) {
    if (c.status === 'sold' || c.status === 'advertised')
      problems.push({
        field: 'status',
        problem: `a certificate struck to the county was issued to the county, not sold to a bidder or still advertised (s. 197.432); status is ${c.status}`,
      });
    if (!namesTheCounty(c.holder_name, c.county_name))
      problems.push({
        field: 'holder_name',
        problem: `a certificate struck to the county is held by the county, ${countyHolderName(c.county_name)} (s. 197.432); holder is ${c.holder_name}`,
      });
  }
  return problems;
}

/**
 * A redemption pays the holder exactly the quote's holder_amount on the redeemed
 * date. Only the amount is checked: a redemption past the 7 years stays lawful
 * (a bankruptcy stay tolls the term), as said above.
 */
function redemptionProblem(c: Chapter197Facts & { redemption_amount: number; redeemed_date: string }): string | null {
  let quote: ReturnType<typeof quoteAmounts>;
  try {
    quote = quoteAmounts(c.face_amount, c.interest_rate, c.sale_date, c.redeemed_date);
  } catch (err) {
    // An amount not in whole cents, a rate past 18 or a redemption before the sale has no quote;
    // each is already its own field's issue in the record schema, and a schema must report, not throw.
    if (err instanceof RangeError) return null;
    throw err;
  }
  if (Math.round(c.redemption_amount * 100) === quote.holder_amount_cents) return null;
  const due = (quote.holder_amount_cents / 100).toFixed(2);
  const interest =
    quote.rule === 'zero_bid'
      ? 'no interest on a 0% bid'
      : quote.rule === 'no_interest_yet'
        ? 'no interest before June of the sale year'
        : `${quote.interest_months} months of interest from June of the sale year, at least the 5% minimum`;
  return `the holder receives the face plus ${interest}, ${due} on ${c.redeemed_date} (s. 197.172, s. 197.402(3), s. 197.472(2)); ${c.redemption_amount.toFixed(2)} is not that`;
}
