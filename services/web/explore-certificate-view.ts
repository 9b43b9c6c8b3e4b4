import type { InvalidParamsError } from '../api/errors.ts';
import type { DeedEstimateObject, RedemptionQuoteObject, TimelineObject } from '../api/routes/certificate-quotes/row.ts';
import type { ExpandedCertificateRow } from '../api/routes/certificates/row-view.ts';
import type { EventRow } from '../api/routes/events/row.ts';
import type { PortfolioRow } from '../api/routes/portfolios/row.ts';
import type { Registry } from '../domain/registry.ts';
import { EXPLORE_PATH } from './explore-view.ts';
import { day, moment } from './format.ts';

/**
 * The explorer's certificate page (pure): the row, and the quote, timeline and deed estimate of
 * the day asked for (the API's answers, or the API's refusal of that day), its events and the
 * portfolios it can be added to.
 */

type Answer<T> = { data: T; error?: undefined } | { data?: undefined; error: InvalidParamsError };

const money = (n: number | null) =>
  n === null ? 'None' : `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
const dayOrNone = (d: string | null) => (d === null ? 'None' : day(d));

const DEADLINE_WORDS: Record<string, string> = {
  deed_application_earliest: 'A tax deed application is first allowed',
  expires: 'The certificate expires',
};

export interface CertificateInput {
  certificate: ExpandedCertificateRow;
  date: string;
  quote: Answer<RedemptionQuoteObject>;
  timeline: Answer<TimelineObject>;
  deed: Answer<DeedEstimateObject>;
  events: EventRow[];
  portfolios: PortfolioRow[];
  portfolioRefusal: string | null;
  charged: number;
  registry: Pick<Registry, 'county'>;
}

export function certificateModel(input: CertificateInput) {
  const c = input.certificate;
  const problem = input.quote.error ?? input.timeline.error ?? input.deed.error ?? null;
  const q = input.quote.data;
  const t = input.timeline.data;
  const d = input.deed.data;
  return {
    title: `Certificate ${c.certificate_number}, ${c.county_name}`,
    id: c.id,
    action: `${EXPLORE_PATH}/certificates/${c.id}`,
    facts: [
      ['Certificate number', c.certificate_number],
      ['County', c.county_name],
      ['Tax year', String(c.tax_year)],
      ['Status', c.status.replaceAll('_', ' ')],
      ['Face amount', money(c.face_amount)],
      ['Delinquent amount', money(c.delinquent_amount)],
      ['Winning bid rate', `${c.interest_rate}%`],
      ['Sale date', day(c.sale_date)],
      ['Holder', c.holder_name],
      ['Vendor', c.vendor],
      ['Parcel', c.parcel_id],
      ['Owner at sale', c.owner_name],
      ['Situs address', c.site_address_full],
      ['Redeemed', c.redeemed ? `Yes, ${dayOrNone(c.redeemed_date)}` : 'No'],
      ['Tax deed application', dayOrNone(c.tax_deed_application_date)],
    ].map(([label, value]) => ({ label: label!, value: value! })),
    parcelUrl: c.parcel_url,
    date: input.date,
    problem: problem && { summary: problem.message, issues: problem.issues },
    quote: q && {
      asOf: day(q.as_of),
      redeemable: q.redeemable,
      reason: q.reason,
      lines: [
        ['Interest months', String(q.interest_months)],
        ['Accrued interest', money(q.accrued_interest)],
        ['Minimum interest', money(q.minimum_interest)],
        ['Interest due', money(q.interest_due)],
        ['Holder receives', money(q.holder_amount)],
        ['Redemption fee', money(q.redemption_fee)],
        ['Owner pays', money(q.total_due)],
      ].map(([label, value]) => ({ label: label!, value: value! })),
      statute: q.statute.join(', '),
    },
    timeline: t && {
      asOf: day(t.as_of),
      dates: [
        ['Sale', day(t.dates.sale)],
        ['Interest starts', day(t.dates.interest_starts)],
        ['Tax deed application first allowed', day(t.dates.deed_application_earliest)],
        ['Expires', dayOrNone(t.dates.expires)],
        ['Tax deed application', dayOrNone(t.dates.tax_deed_application)],
        ['Redeemed', dayOrNone(t.dates.redeemed)],
      ].map(([label, value]) => ({ label: label!, value: value! })),
      next: t.next_deadline && {
        text: `${DEADLINE_WORDS[t.next_deadline.name] ?? t.next_deadline.name} on ${day(t.next_deadline.date)}, in ${t.next_deadline.days_left} ${t.next_deadline.days_left === 1 ? 'day' : 'days'}.`,
      },
    },
    deed: d && {
      eligible: d.eligible,
      eligibleFrom: day(d.eligible_from),
      others: d.other_certificates.map((o) => ({
        number: o.certificate_number,
        taxYear: o.tax_year,
        status: o.status.replaceAll('_', ' '),
        holder: o.holder_name,
        amount: o.holder_amount === null ? 'Not redeemable' : money(o.holder_amount),
      })),
      othersTotal: money(d.other_certificates_total),
      fee: money(d.application_fee),
      knownTotal: money(d.known_total),
      notIncluded: d.not_included,
    },
    events: input.events.map((e) => ({
      id: e.id,
      type: e.type,
      when: moment(e.created_at),
      changed: changedFields(e),
    })),
    portfolios: input.portfolios.map((p) => ({ id: p.id, name: p.name })),
    portfolioRefusal: input.portfolioRefusal,
    cost: `This page cost ${input.charged} ${input.charged === 1 ? 'credit' : 'credits'}`,
  };
}

function changedFields(e: EventRow): string {
  const previous = (e.data as { previous?: Record<string, unknown> }).previous;
  if (previous === undefined) return '';
  const names = Object.keys(previous);
  return names.length === 0 ? 'New certificate' : `Changed: ${names.join(', ')}`;
}
