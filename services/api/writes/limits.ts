import { MAX_ENDPOINTS_PER_CLIENT } from '../../control/feed/webhook-endpoints.ts';
import type { Principal } from '../access/authenticate.ts';
import { ApiError } from '../errors.ts';

/**
 * How many of each writable resource one client may own, by plan. Webhook endpoints keep the
 * control plane's own rule (16 on every plan that has webhooks; a plan without them is refused
 * earlier with webhooks_disabled), so the account page, the CLI and the API agree. Saved searches
 * grow with the plan: enough to try them on a trial, hundreds for a fund's desk (docs/writes.md).
 */
export const SAVED_SEARCH_LIMITS: Record<Principal['plan']['code'], number> = {
  free_trial: 3,
  developer: 10,
  mcp_starter: 10,
  pro: 25,
  growth: 100,
  lead_feed: 100,
  enterprise: 500,
};

/** The most saved searches any plan keeps: a client never has more, so one page of this many is all of them. */
export const MOST_SAVED_SEARCHES = Math.max(...Object.values(SAVED_SEARCH_LIMITS));

/**
 * Portfolios, like saved searches, cost a row each to keep (their positions are bounded below),
 * so the same tiers: a few on a trial, hundreds for a fund's books.
 */
export const PORTFOLIO_LIMITS: Record<Principal['plan']['code'], number> = { ...SAVED_SEARCH_LIMITS };

/**
 * Positions one portfolio may hold, by plan: at least one whole request's worth (10,000 lines)
 * on every plan, so a small holder loads its book in one call; a fund holding more than
 * 100,000 certificates in one book splits it across portfolios. Each position is a row, and
 * a portfolio's quotes read all its positions at once, which is what bounds the largest.
 */
export const POSITION_LIMITS: Record<Principal['plan']['code'], number> = {
  free_trial: 10_000,
  developer: 10_000,
  mcp_starter: 10_000,
  pro: 25_000,
  growth: 50_000,
  lead_feed: 50_000,
  enterprise: 100_000,
};

export const WRITABLE_RESOURCES = ['webhook_endpoints', 'saved_searches', 'portfolios', 'portfolio_positions'] as const;
export type WritableResource = (typeof WRITABLE_RESOURCES)[number];

export function resourceLimit(resource: WritableResource, plan: Principal['plan']): number {
  switch (resource) {
    case 'webhook_endpoints':
      return plan.webhooks === 'none' ? 0 : MAX_ENDPOINTS_PER_CLIENT;
    case 'saved_searches':
      return SAVED_SEARCH_LIMITS[plan.code];
    case 'portfolios':
      return PORTFOLIO_LIMITS[plan.code];
    case 'portfolio_positions':
      return POSITION_LIMITS[plan.code];
  }
}

/** 403 limit_reached: the client owns as many as its plan allows; deleting one makes room. */
export class LimitReachedError extends ApiError {
  constructor(resource: WritableResource, limit: number, plan: string) {
    super(
      'limit_reached',
      `you already have ${limit} ${resource.replaceAll('_', ' ')}, the most the ${plan} plan allows; delete one first`,
      {
        resource,
        limit,
        plan,
      },
    );
  }
}

/**
 * 403 limit_reached for positions, which are counted per portfolio: the lines of one request
 * would take the portfolio past its plan's limit, so none of them was added.
 */
export class PositionLimitReachedError extends ApiError {
  constructor(input: { portfolioId: string; limit: number; plan: string; held: number; adding: number }) {
    super(
      'limit_reached',
      `portfolio ${input.portfolioId} holds ${input.held} positions and this request adds ${input.adding}, past the ${input.limit} the ${input.plan} plan allows in one portfolio; nothing was added: delete positions first or use another portfolio`,
      {
        resource: 'portfolio_positions',
        limit: input.limit,
        plan: input.plan,
        portfolio_id: input.portfolioId,
        held: input.held,
        adding: input.adding,
      },
    );
  }
}

/**
 * 403 limit_reached for following a holder group: the group's certificates become the portfolio's
 * positions, so a group may hold at most as many as the plan lets one portfolio hold, and no more
 * than one portfolio read takes (PORTFOLIO_GROUP_MAX).
 */
export class FollowLimitReachedError extends ApiError {
  constructor(input: { group: string; certificates: number; limit: number; plan: string }) {
    super(
      'limit_reached',
      `holder group ${input.group} holds ${input.certificates.toLocaleString('en-US')} certificates, more than the ${input.limit.toLocaleString('en-US')} a portfolio on the ${input.plan} plan may follow; follow a smaller group (GET /api/v1/analytics/holders lists each group's certificates) or add its certificates as positions across portfolios`,
      {
        resource: 'portfolio_positions',
        parameter: 'follow_holder_group',
        limit: input.limit,
        plan: input.plan,
        holder_group: input.group,
        certificates: input.certificates,
      },
    );
  }
}

/**
 * 403 limit_reached on a read: the holder group a portfolio follows has grown, by ingests since it
 * was followed, past the most certificates one portfolio's read takes. Nothing is left out
 * silently: the read is refused until the portfolio follows a smaller group or none.
 */
export class FollowedGroupTooLargeError extends ApiError {
  constructor(input: { portfolioId: string; group: string; limit: number }) {
    super(
      'limit_reached',
      `portfolio ${input.portfolioId} follows holder group ${input.group}, which now holds more than ${input.limit.toLocaleString('en-US')} certificates, the most one portfolio reads; follow a smaller group or none (PATCH /api/v1/portfolios/${input.portfolioId} with follow_holder_group)`,
      {
        resource: 'portfolio_positions',
        parameter: 'follow_holder_group',
        limit: input.limit,
        portfolio_id: input.portfolioId,
        holder_group: input.group,
      },
    );
  }
}
