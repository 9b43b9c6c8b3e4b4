import type { PortfolioRecord } from '../../../control/portfolios/index.ts';
import {
  createPortfolioCalendar,
  deletePortfolioCalendar,
  portfolioCalendarOf,
  portfolioOfCalendarToken,
} from '../../../control/portfolios/index.ts';
import { certificateTimeline } from '../../../domain/certificate-timeline.ts';
import { floridaToday } from '../../../domain/florida-today.ts';
import type { Registry } from '../../../domain/registry.ts';
import { NotFoundError } from '../../errors.ts';
import { deleted, type WriteResult } from '../../writes/respond.ts';
import { type CalendarDeadline, renderCalendar } from './calendar-ics.ts';
import type { PositionFigures } from './position-answer.ts';
import { ownPortfolio, type PortfolioOwner } from './read.ts';
import { type PortfoliosDeps, portfolioFigures } from './read-positions.ts';
import type { CalendarAddressRow } from './calendar-row.ts';

/**
 * A portfolio's calendar (docs/portfolios.md#calendar): every deadline still ahead of each
 * position whose certificate is outstanding, by the certificate timeline's own rule (the dates
 * GET /certificates/{id}/timeline answers): the day a deed application opens, for a certificate
 * still sold, and the day it expires, until a deed application stops the term. Read through the
 * positions read (portfolioFigures), so the calendar lists what the positions list.
 */

const money = (amount: number) => `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** The deadlines on or after `today` of the portfolio's positions, pure. */
export function calendarDeadlines(
  portfolioName: string,
  figures: readonly PositionFigures[],
  today: string,
  registry: Pick<Registry, 'county'>,
): CalendarDeadline[] {
  const out: CalendarDeadline[] = [];
  for (const f of figures) {
    const doc = f.doc;
    if (doc === null || (doc.status !== 'sold' && doc.status !== 'tax_deed_applied')) continue;
    const { dates } = certificateTimeline(doc, today);
    const p = f.facts;
    const what = `${registry.county(p.county_slug)?.name ?? p.county_slug} ${p.tax_year} certificate ${p.certificate_number}`;
    const description = [
      `${what}: face ${money(doc.face_amount)}, rate ${doc.interest_rate}%.`,
      `Position ${p.id} of portfolio ${portfolioName}.`,
      `GET /api/v1/certificates/${p.certificate_id}/timeline`,
    ].join('\n');
    if (doc.status === 'sold' && dates.deed_application_earliest >= today)
      out.push({
        positionId: p.id,
        kind: 'deed_application_opens',
        date: dates.deed_application_earliest,
        summary: `Deed application opens: ${what}`,
        description,
      });
    if (dates.expires !== null && dates.expires >= today)
      out.push({ positionId: p.id, kind: 'expires', date: dates.expires, summary: `Certificate expires: ${what}`, description });
  }
  return out;
}

async function calendarText(deps: PortfoliosDeps, portfolio: PortfolioRecord, now: Date): Promise<string> {
  const today = floridaToday(now);
  const figures = await portfolioFigures(deps, portfolio, today);
  return renderCalendar({
    portfolioId: portfolio.id,
    portfolioName: portfolio.name,
    deadlines: calendarDeadlines(portfolio.name, figures, today, deps.registry),
    now: now.toISOString(),
  });
}

/** GET /api/v1/portfolios/{id}/calendar.ics: with the API key, like any read. */
export async function readPortfolioCalendar(deps: PortfoliosDeps, owner: PortfolioOwner, id: string, now = new Date()): Promise<string> {
  return calendarText(deps, await ownPortfolio(deps.sql, owner, id), now);
}

/** GET /calendar/<token>.ics: the token is the credential; an unknown or revoked one is a 404. */
export async function readCalendarByToken(deps: PortfoliosDeps, token: string, now = new Date()): Promise<string> {
  const portfolio = await portfolioOfCalendarToken(deps.sql, token);
  if (!portfolio) throw new NotFoundError('no calendar at this address: it was revoked or never existed');
  return calendarText(deps, portfolio, now);
}

export function calendarAddress(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/calendar/${token}.ics`;
}

/** POST /api/v1/portfolios/{id}/calendar-address: a new secret address, replacing the old one; shown this once. */
export async function createCalendarAddressWrite(
  deps: PortfoliosDeps & { config: { PUBLIC_URL: string } },
  owner: PortfolioOwner,
  id: string,
): Promise<WriteResult<CalendarAddressRow>> {
  await ownPortfolio(deps.sql, owner, id);
  const made = await createPortfolioCalendar(deps.sql, id);
  return {
    status: 201,
    data: { portfolio_id: id, url: calendarAddress(deps.config.PUBLIC_URL, made.token), token: made.token, created_at: made.createdAt },
  };
}

/** DELETE /api/v1/portfolios/{id}/calendar-address: the address stops answering at once. */
export async function deleteCalendarAddressWrite(
  deps: PortfoliosDeps,
  owner: PortfolioOwner,
  id: string,
): Promise<WriteResult<{ id: string; deleted: true }>> {
  await ownPortfolio(deps.sql, owner, id);
  if (!(await deletePortfolioCalendar(deps.sql, id))) throw new NotFoundError(`portfolio ${id} has no calendar address`);
  return deleted(id);
}

/** Whether the portfolio has an address now, and since when (the token itself is never shown again). */
export async function calendarAddressState(deps: PortfoliosDeps, id: string): Promise<{ created_at: string } | null> {
  const found = await portfolioCalendarOf(deps.sql, id);
  return found ? { created_at: found.createdAt } : null;
}
