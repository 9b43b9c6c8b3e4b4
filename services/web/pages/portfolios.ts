import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidParamsError, NotFoundError, type ParamIssue } from '../../api/errors.ts';
import { parseParams } from '../../api/params/parse.ts';
import { CreatePortfolioBody } from '../../api/routes/portfolios/params.ts';
import { calendarAddressState } from '../../api/routes/portfolios/calendar-read.ts';
import { POSITION_STATUSES } from '../../api/routes/portfolios/position-row.ts';
import { readPortfolioPositions, readPortfolioSummary } from '../../api/routes/portfolios/read-positions.ts';
import { readPortfolios } from '../../api/routes/portfolios/read.ts';
import { POSITION_SORTS, PositionsParams } from '../../api/routes/portfolios/reading-params.ts';
import type { PortfolioRow } from '../../api/routes/portfolios/row.ts';
import { createPortfolioWrite, deletePortfolioWrite } from '../../api/routes/portfolios/write.ts';
import { parseBody } from '../../api/writes/body.ts';
import { FollowedGroupTooLargeError, LimitReachedError, resourceLimit } from '../../api/writes/limits.ts';
import type { PageContext } from '../context.ts';
import { moment } from '../format.ts';
import type { FieldErrors } from '../forms.ts';
import { ownPortfolioRow, portfolioNotFoundPage, portfolioOwnerOf, portfolioRefusal } from '../portfolio-owner.ts';
import { positionView, summaryView } from '../portfolio-view.ts';
import { message, page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';
import { MOST_CSV_BYTES_WORDS } from './portfolio-upload.ts';

/** Positions per page of the table. */
export const POSITIONS_SHOWN = 25;

/** The table's controls, as the query string of the portfolio's page carries them (the API's names). */
const TABLE_PARAMS = ['as_of', 'status', 'county', 'sort', 'offset'] as const;

const SORT_WORDS: Record<(typeof POSITION_SORTS)[number], string> = {
  next_deadline_asc: 'Next deadline, soonest first',
  payoff_desc: 'Payoff, largest first',
  face_desc: 'Face amount, largest first',
  acquired_desc: 'Acquired, newest first',
};

/**
 * /account/portfolios: the client's portfolios (docs/portfolios.md) through the API's own read
 * and write functions: list, create by name, delete after a confirmation page; each portfolio's
 * page shows its summary and its positions table with the API's sorts, filters and paging, the
 * CSV upload (portfolio-upload.ts) and its calendar address (portfolio-calendar.ts).
 */
export function portfoliosPage(scope: FastifyInstance, ctx: PageContext): void {
  const listing = async (
    request: FastifyRequest,
    reply: FastifyReply,
    form: { name?: string; errors?: FieldErrors } = {},
    status = 200,
  ) => {
    const account = signedIn(request);
    const owner = await portfolioOwnerOf(ctx, account);
    const limit = resourceLimit('portfolios', owner.plan);
    const { rows, total } = await readPortfolios(ctx, owner, { limit: 100, offset: 0 });
    return page(
      request,
      reply,
      'portfolios',
      {
        title: 'Portfolios',
        refusal:
          portfolioRefusal(account) ??
          (total >= limit ? `You have ${total} portfolios, the most the ${owner.plan.name} plan allows: delete one first.` : null),
        usage: `You have ${total} of the ${limit} portfolios the ${owner.plan.name} plan allows.`,
        portfolios: rows.map(portfolioView),
        value: form.name ?? '',
        errors: form.errors ?? {},
      },
      status,
    );
  };

  scope.get('/portfolios', { preHandler: requireUser }, async (request, reply) => listing(request, reply));

  scope.post('/portfolios', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const back = { href: '/account/portfolios', label: 'Back to your portfolios' };
    const refusal = portfolioRefusal(account);
    if (refusal) return message(request, reply, 403, { title: 'No new portfolio', text: refusal, link: back });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const name = typeof body.name === 'string' ? body.name : '';
    const parsed = parseBody(CreatePortfolioBody, { name });
    if (parsed.error) return listing(request, reply, { name, errors: nameErrors(parsed.error.issues) }, 400);
    try {
      const made = await createPortfolioWrite(ctx, await portfolioOwnerOf(ctx, account), parsed.value);
      return reply.redirect(`/account/portfolios/${made.data.id}?notice=portfolio-created`, 303);
    } catch (err) {
      if (err instanceof LimitReachedError)
        return message(request, reply, 403, { title: 'No new portfolio', text: `You ${err.message.slice('you '.length)}.`, link: back });
      if (err instanceof InvalidParamsError) return listing(request, reply, { name, errors: nameErrors(err.issues) }, 400);
      throw err;
    }
  });

  scope.get('/portfolios/:id', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const owner = await portfolioOwnerOf(ctx, account);
    const portfolio = await ownPortfolioRow(ctx, owner, request);
    if (!portfolio) return portfolioNotFoundPage(request, reply);
    const query = request.query as Record<string, unknown>;
    const given: Record<string, unknown> = { limit: String(POSITIONS_SHOWN) };
    for (const name of TABLE_PARAMS) {
      const value = query[name];
      // An empty box of the filter form is a filter not given.
      if (value !== undefined && value !== '') given[name] = value;
    }
    const parsed = parseParams(PositionsParams, PositionsParams.shape, given);
    const controls = {
      sort: typeof given.sort === 'string' ? given.sort : 'next_deadline_asc',
      county: typeof given.county === 'string' ? given.county : '',
      statuses: [given.status ?? []].flat().flatMap((s) => String(s).split(',')),
      asOf: typeof given.as_of === 'string' ? given.as_of : '',
    };
    const common = {
      title: portfolio.name,
      portfolio: portfolioView(portfolio),
      controls,
      sorts: POSITION_SORTS.map((value) => ({ value, label: SORT_WORDS[value] })),
      statuses: POSITION_STATUSES.map((value) => ({
        value,
        label: value === 'unresolved' ? 'not in the data yet' : value.replaceAll('_', ' '),
      })),
      calendar: await calendarView(ctx, portfolio.id),
      refusal: portfolioRefusal(account),
      mostFile: MOST_CSV_BYTES_WORDS,
    };
    if (parsed.error) {
      const problems = parsed.error.issues.map((i) => `${i.parameter}: ${i.message}`);
      return page(request, reply, 'portfolio', { ...common, problems, summary: null, positions: null }, 400);
    }
    const params = parsed.value;
    try {
      const [summary, positions] = await Promise.all([
        readPortfolioSummary(ctx, owner, { id: portfolio.id }, { as_of: params.as_of }, ctx.clock()),
        readPortfolioPositions(ctx, owner, { id: portfolio.id }, params, ctx.clock()),
      ]);
      const link = (offset: number) => `/account/portfolios/${portfolio.id}?${tableQuery(given, offset)}`;
      const end = params.offset + positions.rows.length;
      return page(request, reply, 'portfolio', {
        ...common,
        problems: [],
        summary: summaryView(summary.data),
        positions: {
          rows: positions.rows.map((p) => positionView(p, ctx.registry)),
          range: positions.total === 0 ? 'No positions match.' : `Positions ${params.offset + 1} to ${end} of ${positions.total}.`,
          previous: params.offset > 0 ? link(Math.max(0, params.offset - POSITIONS_SHOWN)) : null,
          next: end < positions.total ? link(end) : null,
        },
      });
    } catch (err) {
      if (err instanceof NotFoundError) return portfolioNotFoundPage(request, reply);
      if (err instanceof InvalidParamsError) {
        const problems = err.issues.map((i) => `${i.parameter}: ${i.message}`);
        return page(request, reply, 'portfolio', { ...common, problems, summary: null, positions: null }, 400);
      }
      // The followed group grew past what one read takes: said on the page, which still offers the change.
      if (err instanceof FollowedGroupTooLargeError)
        return page(request, reply, 'portfolio', { ...common, problems: [err.message], summary: null, positions: null }, 403);
      throw err;
    }
  });

  scope.get('/portfolios/:id/delete', { preHandler: requireUser }, async (request, reply) => {
    const portfolio = await ownPortfolioRow(ctx, await portfolioOwnerOf(ctx, signedIn(request)), request);
    if (!portfolio) return portfolioNotFoundPage(request, reply);
    return page(request, reply, 'portfolio-confirm', {
      title: 'Delete this portfolio?',
      portfolio: portfolioView(portfolio),
      text: 'Its positions and its calendar address go with it, and the API answers 404 for it from now on. This cannot be undone.',
    });
  });

  scope.post('/portfolios/:id/delete', { preHandler: requireUser }, async (request, reply) => {
    const owner = await portfolioOwnerOf(ctx, signedIn(request));
    const id = (request.params as { id: string }).id;
    try {
      await deletePortfolioWrite(ctx, owner, id);
    } catch (err) {
      if (err instanceof NotFoundError) return portfolioNotFoundPage(request, reply);
      throw err;
    }
    return reply.redirect('/account/portfolios?notice=portfolio-deleted', 303);
  });
}

function portfolioView(p: PortfolioRow) {
  return { id: p.id, name: p.name, follows: p.follow_holder_group, created: moment(p.created_at) };
}

/** The name's problems in the API's words, beside the name field. */
function nameErrors(issues: readonly ParamIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    if (issue.parameter === 'name') errors.name ??= `The name ${issue.message}.`;
    else errors.form ??= `${issue.parameter}: ${issue.message}`;
  }
  return errors;
}

/** The table's query string at another offset, every control kept. */
function tableQuery(given: Record<string, unknown>, offset: number): string {
  const q = new URLSearchParams();
  for (const name of TABLE_PARAMS) {
    if (name === 'offset') continue;
    for (const v of [given[name] ?? []].flat()) q.append(name, String(v));
  }
  q.set('offset', String(offset));
  return q.toString();
}

async function calendarView(ctx: PageContext, portfolioId: string) {
  const calendar = await calendarAddressState(ctx, portfolioId);
  return calendar === null ? null : { created: moment(calendar.created_at) };
}
