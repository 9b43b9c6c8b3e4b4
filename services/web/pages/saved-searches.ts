import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidParamsError, NotFoundError, type ParamIssue } from '../../api/errors.ts';
import { CreateSavedSearchBody, UpdateSavedSearchBody } from '../../api/routes/saved-searches/params.ts';
import { readSavedParams, readSavedSearch, readSavedSearches, type SavedSearchOwner } from '../../api/routes/saved-searches/read.ts';
import type { SavedSearchRow } from '../../api/routes/saved-searches/row.ts';
import {
  createSavedSearchWrite,
  deleteSavedSearchWrite,
  type SavedSearchWriteDeps,
  updateSavedSearchWrite,
} from '../../api/routes/saved-searches/write.ts';
import { parseBody } from '../../api/writes/body.ts';
import { LimitReachedError, SAVED_SEARCH_LIMITS } from '../../api/writes/limits.ts';
import { effectivePlan, getPlan, listPlans } from '../../control/billing/plans.ts';
import { recentSavedSearchEvents } from '../../control/feed/events.ts';
import type { PageContext, SignedIn } from '../context.ts';
import { moment } from '../format.ts';
import { type FieldErrors, SavedSearchIdParams } from '../forms.ts';
import { message, page } from '../render.ts';
import { alertRow } from '../saved-search-alerts.ts';
import { queryStringOf, readSearchText, summarizeParams } from '../saved-search-text.ts';
import { requireUser, signedIn } from '../session.ts';

/** Alerts shown on a saved search's page, newest first (the change feed and webhooks carry every one). */
export const ALERTS_SHOWN = 20;

/** Every saved search a client can own on any plan: the list shows them all on one page. */
const MOST_ANY_PLAN_ALLOWS = Math.max(...Object.values(SAVED_SEARCH_LIMITS));

interface CreateForm {
  values?: { name: string; search: string };
  errors?: FieldErrors;
  /** Each problem of the search parameters, in the API's words, shown beside that field. */
  problems?: string[];
}

interface RenameForm {
  value?: string;
  errors?: FieldErrors;
}

/**
 * /account/saved-searches: the client's saved searches (docs/saved-searches.md) through the API's
 * own read and write functions, so a name or a search parameter the API refuses is refused here
 * in the same words and the plan's limit is the same: list, save a search from its query string,
 * rename, delete (after a confirmation page, as revoking a key), and each search's recent alerts
 * (its private events, newest first).
 */
export function savedSearchesPage(scope: FastifyInstance, ctx: PageContext): void {
  const deps: SavedSearchWriteDeps = ctx;

  const listing = async (request: FastifyRequest, reply: FastifyReply, form: CreateForm = {}, status = 200) => {
    const account = signedIn(request);
    const owner = await ownerOf(ctx, account);
    const { rows, total } = await readSavedSearches(deps, owner, { limit: MOST_ANY_PLAN_ALLOWS, offset: 0 });
    return page(
      request,
      reply,
      'saved-searches',
      {
        title: 'Saved searches',
        ...(await gate(ctx, account, owner, total)),
        searches: rows.map((s) => searchRow(ctx, s)),
        values: form.values ?? { name: '', search: '' },
        errors: form.errors ?? {},
        problems: form.problems ?? [],
      },
      status,
    );
  };

  const detail = async (request: FastifyRequest, reply: FastifyReply, saved: SavedSearchRow, form: RenameForm = {}, status = 200) => {
    const account = signedIn(request);
    const alerts = await recentSavedSearchEvents(ctx.sql, { clientId: account.client.id, savedSearchId: saved.id }, ALERTS_SHOWN);
    return page(
      request,
      reply,
      'saved-search',
      {
        title: saved.name,
        search: searchRow(ctx, saved),
        publicUrl: ctx.settings.publicUrl,
        alerts: alerts.map((e) => alertRow(e, ctx.registry)),
        alertsShown: ALERTS_SHOWN,
        value: form.value ?? saved.name,
        errors: form.errors ?? {},
      },
      status,
    );
  };

  scope.get('/saved-searches', { preHandler: requireUser }, async (request, reply) => listing(request, reply));

  scope.post('/saved-searches', { preHandler: requireUser }, async (request, reply) => {
    const account = signedIn(request);
    const owner = await ownerOf(ctx, account);
    const back = { href: '/account/saved-searches', label: 'Back to your saved searches' };
    const refusal = refusalOf(account);
    if (refusal) return message(request, reply, 403, { title: 'No new saved search', text: refusal, link: back });
    const body = (request.body ?? {}) as Record<string, unknown>;
    const values = { name: typeof body.name === 'string' ? body.name : '', search: typeof body.search === 'string' ? body.search : '' };
    const typed = readSearchText(values.search);

    // The name by the API's own body schema, the params by the search's rules (readSavedParams,
    // inside the write): every problem of both is shown at once, in the API's words.
    const issues: ParamIssue[] = typed.problems.map(inParams);
    const named = parseBody(CreateSavedSearchBody, { name: values.name, params: typed.params });
    if (named.error) issues.push(...named.error.issues);
    else if (issues.length === 0) {
      try {
        const made = await createSavedSearchWrite(deps, owner, named.value);
        return reply.redirect(`/account/saved-searches/${made.data.id}?notice=saved-search-created`, 303);
      } catch (err) {
        if (err instanceof LimitReachedError)
          return message(request, reply, 403, { title: 'No new saved search', text: await limitText(ctx, owner), link: back });
        issues.push(...paramIssues(err));
      }
    }
    if (named.error && typed.problems.length === 0) {
      // The name was refused: the params are read all the same, so both fields say what is wrong.
      try {
        readSavedParams(ctx.registry, typed.params);
      } catch (err) {
        issues.push(...paramIssues(err));
      }
    }
    return listing(request, reply, { values, ...formErrors(issues) }, 400);
  });

  scope.get('/saved-searches/:id', { preHandler: requireUser }, async (request, reply) => {
    const saved = await ownSearch(deps, await ownerOf(ctx, signedIn(request)), searchId(request));
    if (!saved) return notFound(request, reply);
    return detail(request, reply, saved);
  });

  scope.post('/saved-searches/:id/rename', { preHandler: requireUser }, async (request, reply) => {
    const owner = await ownerOf(ctx, signedIn(request));
    const saved = await ownSearch(deps, owner, searchId(request));
    if (!saved) return notFound(request, reply);
    const body = (request.body ?? {}) as Record<string, unknown>;
    const value = typeof body.name === 'string' ? body.name : '';
    const change = parseBody(UpdateSavedSearchBody, { name: value });
    if (change.error) return detail(request, reply, saved, { value, errors: formErrors(change.error.issues).errors }, 400);
    try {
      await updateSavedSearchWrite(deps, owner, saved.id, change.value);
    } catch (err) {
      // Deleted meanwhile, from another tab or through the API.
      if (err instanceof NotFoundError) return notFound(request, reply);
      throw err;
    }
    return reply.redirect(`/account/saved-searches/${saved.id}?notice=saved-search-renamed`, 303);
  });

  scope.get('/saved-searches/:id/delete', { preHandler: requireUser }, async (request, reply) => {
    const saved = await ownSearch(deps, await ownerOf(ctx, signedIn(request)), searchId(request));
    if (!saved) return notFound(request, reply);
    return page(request, reply, 'saved-search-confirm', {
      title: 'Delete this saved search?',
      search: searchRow(ctx, saved),
      text: 'It sends no more alerts, and the API answers 404 for it from now on. This cannot be undone.',
    });
  });

  scope.post('/saved-searches/:id/delete', { preHandler: requireUser }, async (request, reply) => {
    const id = searchId(request);
    if (id === null) return notFound(request, reply);
    try {
      await deleteSavedSearchWrite(deps, await ownerOf(ctx, signedIn(request)), id);
    } catch (err) {
      if (err instanceof NotFoundError) return notFound(request, reply);
      throw err;
    }
    return reply.redirect('/account/saved-searches?notice=saved-search-deleted', 303);
  });
}

/** The signed-in client as the saved-search functions take it: with its plan, as the API's Principal has it. */
async function ownerOf(ctx: PageContext, account: SignedIn): Promise<SavedSearchOwner> {
  return { client: account.client, plan: effectivePlan(await getPlan(ctx.sql, account.client.plan), account.client) };
}

/** Why this user may not save a search now (as for keys and webhooks), or null. */
function refusalOf(account: SignedIn): string | null {
  if (account.user.emailVerifiedAt === null) return 'Confirm your email address first: open the link we mailed you.';
  if (account.client.status !== 'active') return 'Your account is suspended, so no searches can be saved. See the overview for why.';
  return null;
}

/** The plan's limit and how much of it is used, and why the form is not offered when it is not. */
async function gate(ctx: PageContext, account: SignedIn, owner: SavedSearchOwner, total: number) {
  const limit = SAVED_SEARCH_LIMITS[owner.plan.code];
  const full = total >= limit;
  return {
    refusal: refusalOf(account) ?? (full ? await limitText(ctx, owner) : null),
    usage: `You have ${total} of the ${limit} saved searches the ${owner.plan.name} plan allows.`,
  };
}

/** The refusal past the plan's limit, with the plans that allow more. */
async function limitText(ctx: PageContext, owner: SavedSearchOwner): Promise<string> {
  const limit = SAVED_SEARCH_LIMITS[owner.plan.code];
  const more = (await listPlans(ctx.sql))
    .filter((p) => SAVED_SEARCH_LIMITS[p.code] > limit)
    .sort((x, y) => SAVED_SEARCH_LIMITS[x.code] - SAVED_SEARCH_LIMITS[y.code])
    .map((p) => `${p.name} ${SAVED_SEARCH_LIMITS[p.code]}`);
  const plans = more.length > 0 ? ` Plans with more: ${more.join(', ')}.` : '';
  return `You already have ${limit} saved searches, the most the ${owner.plan.name} plan allows: delete one first.${plans}`;
}

/** A 400 of the params' check as its issues, with a line counting those it left out; anything else is thrown on. */
function paramIssues(err: unknown): ParamIssue[] {
  if (!(err instanceof InvalidParamsError)) throw err;
  return err.omitted > 0 ? [...err.issues, { parameter: 'params', message: `and ${err.omitted} more problems` }] : err.issues;
}

const isParams = (parameter: string) => parameter === 'params' || parameter.startsWith('params.');
const inParams = (issue: ParamIssue): ParamIssue => ({ ...issue, parameter: `params.${issue.parameter}` });

/**
 * The API's issues as the form shows them: the name's beside the name, each search parameter's
 * beside the search box, named as it is in the query string ("county: ..."), as the API's 400
 * names it without its "params." prefix.
 */
function formErrors(issues: readonly ParamIssue[]): { errors: FieldErrors; problems: string[] } {
  const errors: FieldErrors = {};
  const problems: string[] = [];
  for (const issue of issues) {
    if (issue.parameter === 'name') errors.name ??= `The name ${issue.message}.`;
    else if (issue.parameter === 'params') problems.push(issue.message);
    else if (isParams(issue.parameter)) problems.push(`${issue.parameter.slice('params.'.length)}: ${issue.message}`);
    else errors.form ??= `${issue.parameter}: ${issue.message}`;
  }
  if (problems.length > 0) errors.search = problems.length === 1 ? problems[0]! : `${problems[0]} (and ${problems.length - 1} more)`;
  return { errors, problems };
}

function searchId(request: FastifyRequest): string | null {
  const params = SavedSearchIdParams.safeParse(request.params);
  return params.success ? params.data.id : null;
}

/** The saved search the path names, if it is the signed-in client's (anyone else's is "not found", as in the API). */
async function ownSearch(deps: SavedSearchWriteDeps, owner: SavedSearchOwner, id: string | null): Promise<SavedSearchRow | null> {
  if (id === null) return null;
  try {
    return (await readSavedSearch(deps, owner, { id })).data;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

function notFound(request: FastifyRequest, reply: FastifyReply) {
  return message(request, reply, 404, {
    title: 'No such saved search',
    text: 'This saved search does not exist or belongs to another account.',
    link: { href: '/account/saved-searches', label: 'Your saved searches' },
  });
}

function searchRow(ctx: PageContext, s: SavedSearchRow) {
  return {
    id: s.id,
    name: s.name,
    filters: summarizeParams(s.params, ctx.registry),
    query: queryStringOf(s.params),
    created: moment(s.created_at),
    updated: moment(s.updated_at),
    changed: s.updated_at !== s.created_at,
  };
}
