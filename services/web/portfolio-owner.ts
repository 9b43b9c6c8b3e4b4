import type { FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../api/errors.ts';
import { type PortfolioOwner, readPortfolio } from '../api/routes/portfolios/read.ts';
import type { PortfolioRow } from '../api/routes/portfolios/row.ts';
import { effectivePlan, getPlan } from '../control/billing/plans.ts';
import type { PageContext, SignedIn } from './context.ts';
import { message } from './render.ts';

/** What the portfolio pages share: the signed-in client as the portfolio functions take it, and its own portfolio by the path's id. */

export async function portfolioOwnerOf(ctx: PageContext, account: SignedIn): Promise<PortfolioOwner> {
  return { client: account.client, plan: effectivePlan(await getPlan(ctx.sql, account.client.plan), account.client) };
}

/** Why this user may not add to its portfolios now (as for keys and saved searches), or null. */
export function portfolioRefusal(account: SignedIn): string | null {
  if (account.user.emailVerifiedAt === null) return 'Confirm your email address first: open the link we mailed you.';
  if (account.client.status !== 'active') return 'Your account is suspended, so portfolios cannot be changed. See the overview for why.';
  return null;
}

/** The path's portfolio if it is the client's; another client's is "not found", as in the API. */
export async function ownPortfolioRow(ctx: PageContext, owner: PortfolioOwner, request: FastifyRequest): Promise<PortfolioRow | null> {
  const id = (request.params as { id?: unknown }).id;
  if (typeof id !== 'string') return null;
  try {
    return (await readPortfolio(ctx, owner, { id })).data;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

export function portfolioNotFoundPage(request: FastifyRequest, reply: FastifyReply) {
  return message(request, reply, 404, {
    title: 'No such portfolio',
    text: 'This portfolio does not exist or belongs to another account.',
    link: { href: '/account/portfolios', label: 'Your portfolios' },
  });
}
