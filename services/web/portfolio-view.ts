import type { PositionRow } from '../api/routes/portfolios/position-row.ts';
import type { PositionsReport } from '../api/routes/portfolios/row.ts';
import type { PortfolioSummary } from '../api/routes/portfolios/summary-row.ts';
import type { Registry } from '../domain/registry.ts';
import { count, day } from './format.ts';

/** How the portfolio page prints the reads' answers: dollars as people read them, deadlines in words. Pure. */

/** Dollars to the cent: 1850.4 -> "1,850.40 USD"; null -> "—". */
export function dollars(n: number | null | undefined): string {
  if (n == null) return '—';
  return `${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`;
}

const DEADLINE_WORDS = { deed_application_opens: 'Deed application opens', expires: 'Expires' } as const;

const countyName = (registry: Pick<Registry, 'county'>, slug: string) => registry.county(slug)?.name ?? slug;

export function positionView(p: PositionRow, registry: Pick<Registry, 'county'>) {
  return {
    certificate: `${countyName(registry, p.county_slug)} ${p.tax_year} #${p.certificate_number}`,
    certificateId: p.certificate_id,
    status: p.status === 'unresolved' ? 'not in the data yet' : p.status.replaceAll('_', ' '),
    deadline:
      p.next_deadline === null
        ? 'None ahead'
        : `${DEADLINE_WORDS[p.next_deadline.kind]} ${day(p.next_deadline.date)} (${count(p.next_deadline.days_left)} days)`,
    face: dollars(p.certificate?.face_amount),
    payoff: dollars(p.quote?.holder_amount),
    acquired: p.acquired_on === null ? '—' : day(p.acquired_on),
    paid: dollars(p.acquired_amount),
    note: p.note ?? '',
    followed: p.origin === 'holder_group',
  };
}

export function summaryView(s: PortfolioSummary) {
  const windows = [
    ['7 days', s.deadlines.within_7_days],
    ['30 days', s.deadlines.within_30_days],
    ['90 days', s.deadlines.within_90_days],
  ] as const;
  return {
    asOf: day(s.as_of),
    positions: count(s.positions),
    unresolved: count(s.unresolved),
    byStatus: Object.entries(s.by_status)
      .filter(([, n]) => n > 0)
      .map(([status, n]) => `${status === 'unresolved' ? 'not in the data yet' : status.replaceAll('_', ' ')}: ${count(n)}`),
    outstanding: {
      positions: count(s.outstanding.positions),
      face: dollars(s.outstanding.face_amount),
      payoff: dollars(s.outstanding.payoff_as_of),
      interest: dollars(s.outstanding.interest_accrued),
    },
    redeemed: {
      positions: count(s.redeemed.positions),
      face: dollars(s.redeemed.face_amount),
      interest: dollars(s.redeemed.interest_earned),
    },
    byYear: s.interest_earned_by_year.map((y) => ({ year: y.year, positions: count(y.positions), interest: dollars(y.interest_earned) })),
    deadlines: windows.map(([within, k]) => ({
      within,
      deed: count(k.deed_application_opens),
      expires: count(k.expires),
    })),
  };
}

/** The upload's report, one row per line of the file, with the reason of each rejected one in the API's words. */
export function reportView(r: PositionsReport, registry: Pick<Registry, 'county'>) {
  return {
    created: count(r.created),
    unresolved: count(r.unresolved),
    rejected: count(r.rejected),
    lines: r.lines.map((l) =>
      l.status === 'created'
        ? {
            line: l.line,
            created: true,
            certificate: `${countyName(registry, l.position.county)} ${l.position.tax_year} #${l.position.certificate_number}`,
            text: l.position.resolved ? 'Added' : 'Added; not in the data yet, it resolves once the county publishes it',
          }
        : {
            line: l.line,
            created: false,
            certificate: '',
            text: `${l.error.field === 'line' ? '' : `${l.error.field}: `}${l.error.message}`,
          },
    ),
  };
}
