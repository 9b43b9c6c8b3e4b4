import type { FastifyInstance } from 'fastify';
import { createPortfolioCalendar, deletePortfolioCalendar } from '../../control/portfolios/calendars.ts';
import type { PageContext } from '../context.ts';
import { calendarUrl, ownPortfolioRow, portfolioNotFoundPage, portfolioOwnerOf, portfolioRefusal } from '../portfolio-owner.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';

/**
 * A portfolio's secret calendar address (services/control/portfolios/calendars.ts): making one
 * shows its URL once, as a new API key is shown, since only its hash is kept; making another
 * replaces it; revoking ends it. The portfolio's page says whether one exists and since when.
 */
export function portfolioCalendarPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.post('/portfolios/:id/calendar', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const portfolio = await ownPortfolioRow(ctx, await portfolioOwnerOf(ctx, account), request);
    if (!portfolio) return portfolioNotFoundPage(request, reply);
    const refusal = portfolioRefusal(account);
    if (refusal)
      return message(request, reply, 403, {
        title: 'No calendar address made',
        text: refusal,
        link: { href: `/account/portfolios/${portfolio.id}`, label: 'Back to the portfolio' },
      });
    const made = await createPortfolioCalendar(ctx.sql, portfolio.id, ctx.clock());
    return page(request, reply, 'portfolio-calendar', {
      title: 'Your calendar address',
      portfolio,
      url: calendarUrl(ctx.settings.publicUrl, made.token),
    });
  });

  scope.post('/portfolios/:id/calendar/revoke', { preHandler: requireUser }, async (request, reply) => {
    const portfolio = await ownPortfolioRow(ctx, await portfolioOwnerOf(ctx, signedIn(request)), request);
    if (!portfolio) return portfolioNotFoundPage(request, reply);
    await deletePortfolioCalendar(ctx.sql, portfolio.id);
    return reply.redirect(`/account/portfolios/${portfolio.id}?notice=calendar-revoked`, 303);
  });
}
