import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../api/errors.ts';
import { createCalendarAddressWrite, deleteCalendarAddressWrite } from '../../api/routes/portfolios/calendar-read.ts';
import type { PageContext } from '../context.ts';
import { ownPortfolioRow, portfolioNotFoundPage, portfolioOwnerOf, portfolioRefusal } from '../portfolio-owner.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';

/**
 * A portfolio's secret calendar address, through the API's own writes (POST and DELETE
 * /api/v1/portfolios/{id}/calendar-address): making one shows its URL once, as a new API key is
 * shown, since only its hash is kept; making another replaces it; revoking ends it. The
 * portfolio's page says whether one exists and since when (calendarAddressState).
 */
export function portfolioCalendarPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.post('/portfolios/:id/calendar', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const owner = await portfolioOwnerOf(ctx, account);
    const portfolio = await ownPortfolioRow(ctx, owner, request);
    if (!portfolio) return portfolioNotFoundPage(request, reply);
    const refusal = portfolioRefusal(account);
    if (refusal)
      return message(request, reply, 403, {
        title: 'No calendar address made',
        text: refusal,
        link: { href: `/account/portfolios/${portfolio.id}`, label: 'Back to the portfolio' },
      });
    try {
      const made = await createCalendarAddressWrite(ctx, owner, portfolio.id);
      return page(request, reply, 'portfolio-calendar', { title: 'Your calendar address', portfolio, url: made.data.url });
    } catch (err) {
      // Deleted meanwhile, from another tab or through the API.
      if (err instanceof NotFoundError) return portfolioNotFoundPage(request, reply);
      throw err;
    }
  });

  scope.post('/portfolios/:id/calendar/revoke', { preHandler: requireUser }, async (request, reply) => {
    const owner = await portfolioOwnerOf(ctx, signedIn(request));
    const portfolio = await ownPortfolioRow(ctx, owner, request);
    if (!portfolio) return portfolioNotFoundPage(request, reply);
    try {
      await deleteCalendarAddressWrite(ctx, owner, portfolio.id);
    } catch (err) {
      // Already none (revoked from another tab, or the portfolio deleted): the page then says so.
      if (!(err instanceof NotFoundError)) throw err;
    }
    return reply.redirect(`/account/portfolios/${portfolio.id}?notice=calendar-revoked`, 303);
  });
}
