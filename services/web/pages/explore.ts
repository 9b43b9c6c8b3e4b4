import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, InvalidParamsError, NotFoundError } from '../../api/errors.ts';
import { parseParams } from '../../api/params/parse.ts';
import type { ParsedQuery } from '../../api/params/query-string.ts';
import { AsOfParams } from '../../api/routes/certificate-quotes/params.ts';
import { readCertificateTimeline, readDeedEstimate, readRedemptionQuote } from '../../api/routes/certificate-quotes/read.ts';
import { readCertificate } from '../../api/routes/certificates/read.ts';
import { mapEvent } from '../../api/routes/events/map-row.ts';
import { readPortfolios } from '../../api/routes/portfolios/read.ts';
import { addPositionsWrite } from '../../api/routes/portfolios/write.ts';
import { CreateSavedSearchBody } from '../../api/routes/saved-searches/params.ts';
import { createSavedSearchWrite } from '../../api/routes/saved-searches/write.ts';
import { parseBody } from '../../api/writes/body.ts';
import { LimitReachedError, PositionLimitReachedError } from '../../api/writes/limits.ts';
import { certificateEvents } from '../../control/feed/events.ts';
import { effectivePlan, getPlan } from '../../control/billing/plans.ts';
import type { PageContext, SignedIn } from '../context.ts';
import { MeterRefusal, openMeter } from '../explore-meter.ts';
import { readExploreCharts, readExploreParams, readExploreSearch, readScopeRanges } from '../explore-read.ts';
import { EXPLORE_PATH, exploreModel } from '../explore-view.ts';
import { certificateModel } from '../explore-certificate-view.ts';
import { ExploreCertificateParams, ExplorePortfolioForm, ExploreSaveForm } from '../forms.ts';
import { portfolioOwnerOf, portfolioRefusal } from '../portfolio-owner.ts';
import { message, page } from '../render.ts';
import { readSearchText } from '../saved-search-text.ts';
import { requireUser, signedIn } from '../session.ts';

/** The explorer's own style, and the charting library with the script that draws from the tables. */
const EXPLORE_ASSETS = {
  styles: ['/account/assets/explore.css'],
  scripts: ['/account/assets/chart.umd.min.js', '/account/assets/explore-charts.js'],
};

/** Events of a certificate shown on its page, newest first (the change feed carries every one). */
export const CERTIFICATE_EVENTS_SHOWN = 20;

/**
 * /account/explore: certificate search for people, through the API's own read functions with
 * the API's own parameters (docs/explore.md). The search and its paging are a plain GET form and
 * links; the charts' numbers are tables, which a script draws as charts. Each read is charged as
 * the same API request is (explore-meter.ts), and the page says what it cost.
 */
export function explorePage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get(EXPLORE_PATH.slice('/account'.length), { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const parsed = readExploreParams(request.query as ParsedQuery);
    if (parsed.error) return badParams(request, reply, parsed.error);
    const params = parsed.value;
    const meter = await openMeter(ctx, account);
    try {
      // The ranges' size-0 search runs beside the page's, not after it.
      const [result, ranges] = await Promise.all([readExploreSearch(ctx, meter, params), readScopeRanges(ctx, params)]);
      // The charts describe the scope, not the page: drawn (and charged) with its first page only.
      const charts = params.offset === 0 ? await readExploreCharts(ctx, meter, params) : null;
      return page(request, reply, 'explore', {
        ...exploreModel({ params, result, ranges, charts, charged: meter.charged(), registry: ctx.registry, csvAllowed: meter.plan.csv }),
        // Without charts (a later page) there is nothing to draw: the library is not loaded.
        ...(charts === null ? { styles: EXPLORE_ASSETS.styles } : EXPLORE_ASSETS),
      });
    } catch (err) {
      return refused(request, reply, err);
    }
  });

  scope.get(`${EXPLORE_PATH.slice('/account'.length)}/certificates/:id`, { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const id = certificateId(request);
    if (id === null) return notFound(request, reply);
    const asked = parseParams(AsOfParams, AsOfParams.shape, dateOf(request.query as ParsedQuery));
    const meter = await openMeter(ctx, account);
    try {
      const certificate = (await meter.read(() => readCertificate(ctx, { id }))).data;
      const date = asked.error ? undefined : asked.value.date;
      const dated = async <T>(run: () => Promise<{ data: T }>) => {
        try {
          return { data: (await meter.read(run)).data };
        } catch (err) {
          if (err instanceof InvalidParamsError) return { error: err };
          throw err;
        }
      };
      const onDate = { id, ...(date !== undefined ? { date } : {}) };
      const now = ctx.clock();
      const quote = asked.error ? { error: asked.error } : await dated(() => readRedemptionQuote(ctx, onDate, now));
      const timeline = asked.error ? { error: asked.error } : await dated(() => readCertificateTimeline(ctx, onDate, now));
      const deed = asked.error ? { error: asked.error } : await dated(() => readDeedEstimate(ctx, onDate, now));
      const events = await meter.read(() =>
        certificateEvents(
          ctx.sql,
          { viewer: account.client.id, countySlug: certificate.county_slug, certificateId: id },
          CERTIFICATE_EVENTS_SHOWN,
        ),
      );
      const owner = await portfolioOwnerOf(ctx, account);
      const portfolios = (await readPortfolios(ctx, owner, { limit: 100, offset: 0 })).rows;
      const status = (quote.error ?? timeline.error ?? deed.error) ? 400 : 200;
      return page(
        request,
        reply,
        'explore-certificate',
        {
          ...certificateModel({
            certificate,
            date: date ?? '',
            quote,
            timeline,
            deed,
            events: events.map(mapEvent),
            portfolios,
            portfolioRefusal: portfolioRefusal(account),
            charged: meter.charged(),
            registry: ctx.registry,
          }),
          styles: EXPLORE_ASSETS.styles,
        },
        status,
      );
    } catch (err) {
      if (err instanceof NotFoundError) return notFound(request, reply);
      return refused(request, reply, err);
    }
  });

  scope.post(`${EXPLORE_PATH.slice('/account'.length)}/save`, { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const back = { href: EXPLORE_PATH, label: 'Back to the explorer' };
    const refusal = saveRefusal(account);
    if (refusal) return message(request, reply, 403, { title: 'No new saved search', text: refusal, link: back });
    const form = ExploreSaveForm.safeParse(request.body ?? {});
    if (!form.success)
      return message(request, reply, 400, { title: 'The search was not saved', text: form.error.issues[0]!.message, link: back });
    const typed = readSearchText(form.data.search);
    const again = { href: typed.problems.length === 0 ? `${EXPLORE_PATH}?${form.data.search}` : EXPLORE_PATH, label: 'Back to the search' };
    const named = parseBody(CreateSavedSearchBody, { name: form.data.name, params: typed.params });
    if (named.error || typed.problems.length > 0) {
      const issue = named.error?.issues[0] ?? typed.problems[0]!;
      return message(request, reply, 400, { title: 'The search was not saved', text: `${issue.parameter}: ${issue.message}`, link: again });
    }
    const owner = { client: account.client, plan: effectivePlan(await getPlan(ctx.sql, account.client.plan), account.client) };
    try {
      const made = await createSavedSearchWrite(ctx, owner, named.value);
      return reply.redirect(`/account/saved-searches/${made.data.id}?notice=saved-search-created`, 303);
    } catch (err) {
      if (err instanceof LimitReachedError)
        return message(request, reply, 403, {
          title: 'No new saved search',
          text: err.message,
          link: { href: '/account/saved-searches', label: 'Your saved searches' },
        });
      if (err instanceof InvalidParamsError)
        return message(request, reply, 400, { title: 'The search was not saved', text: err.message, link: again });
      throw err;
    }
  });

  scope.post(`${EXPLORE_PATH.slice('/account'.length)}/certificates/:id/portfolio`, { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const id = certificateId(request);
    if (id === null) return notFound(request, reply);
    const back = { href: `${EXPLORE_PATH}/certificates/${id}`, label: 'Back to the certificate' };
    const refusal = portfolioRefusal(account);
    if (refusal) return message(request, reply, 403, { title: 'Not added', text: refusal, link: back });
    const form = ExplorePortfolioForm.safeParse(request.body ?? {});
    if (!form.success) return message(request, reply, 400, { title: 'Not added', text: form.error.issues[0]!.message, link: back });
    const owner = await portfolioOwnerOf(ctx, account);
    try {
      const added = await addPositionsWrite(ctx, owner, form.data.portfolio, { positions: [{ certificate_id: id }] }, ctx.clock());
      const line = added.data.lines[0]!;
      if (line.status === 'rejected') return message(request, reply, 400, { title: 'Not added', text: line.error.message, link: back });
      return reply.redirect(`/account/portfolios/${form.data.portfolio}?notice=position-added`, 303);
    } catch (err) {
      if (err instanceof NotFoundError)
        return message(request, reply, 404, {
          title: 'No such portfolio',
          text: 'This portfolio does not exist or belongs to another account.',
          link: back,
        });
      if (err instanceof PositionLimitReachedError)
        return message(request, reply, 403, { title: 'Not added', text: err.message, link: back });
      throw err;
    }
  });
}

/** Why this user may not save a search now (as on the saved searches page), or null. */
function saveRefusal(account: SignedIn): string | null {
  if (account.user.emailVerifiedAt === null) return 'Confirm your email address first: open the link we mailed you.';
  if (account.client.status !== 'active') return 'Your account is suspended, so no searches can be saved. See the overview for why.';
  return null;
}

function certificateId(request: FastifyRequest): string | null {
  const parsed = ExploreCertificateParams.safeParse(request.params);
  return parsed.success ? parsed.data.id : null;
}

/** The quote form's one field; a blank box is today, as the API's default. */
function dateOf(query: ParsedQuery): Record<string, unknown> {
  const { notice: _n, ...rest } = query;
  const date = rest.date;
  if (date === '' || (Array.isArray(date) && date.every((d) => d === ''))) delete rest.date;
  return rest;
}

/** A parameter the API refuses: the page says so as the API's 400 does (the same message, each parameter named). */
function badParams(request: FastifyRequest, reply: FastifyReply, error: InvalidParamsError) {
  return page(
    request,
    reply,
    'explore-error',
    {
      title: 'This search was not accepted',
      summary: error.message,
      issues: error.issues.map((i) => ({ parameter: i.parameter, message: i.message })),
    },
    400,
  );
}

const REFUSALS: Record<MeterRefusal['reason'], { status: number; title: string; text: string }> = {
  rest_disabled: {
    status: 403,
    title: 'Your plan has no search',
    text: 'The explorer reads what the REST API reads, and your plan does not include the REST API. See the plans that do.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests this minute',
    text: "The explorer's searches count in your plan's requests per minute, as your keys' requests do. Wait a moment and reload.",
  },
  payment_required: {
    status: 402,
    title: 'No credits left',
    text: 'Each search costs credits, as the API does, and your balance is used up. Choose a plan or buy a credit pack.',
  },
  quota_exhausted: {
    status: 429,
    title: "This month's credits are used up",
    text: 'Each search costs credits, as the API does. Your plan answers again from the first of next month, or buy a credit pack now.',
  },
};

function refused(request: FastifyRequest, reply: FastifyReply, err: unknown) {
  if (err instanceof MeterRefusal) {
    const r = REFUSALS[err.reason];
    if (err.retryAfterSeconds !== null) reply.header('retry-after', String(err.retryAfterSeconds));
    return message(request, reply, r.status, {
      title: r.title,
      text: r.text,
      link: { href: '/account/billing', label: 'Plans and packs' },
    });
  }
  if (err instanceof InvalidParamsError) return badParams(request, reply, err);
  if (err instanceof ApiError && err.status < 500)
    return message(request, reply, err.status, {
      title: 'This search was not accepted',
      text: err.message,
      link: { href: EXPLORE_PATH, label: 'A new search' },
    });
  throw err;
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return message(request, reply, 404, {
    title: 'No such certificate',
    text: 'No certificate has this id. Certificate ids look like cert_ followed by 20 hex digits.',
    link: { href: EXPLORE_PATH, label: 'Explore certificates' },
  });
}
