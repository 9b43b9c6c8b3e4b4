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

export const WRITABLE_RESOURCES = ['webhook_endpoints', 'saved_searches'] as const;
export type WritableResource = (typeof WRITABLE_RESOURCES)[number];

export function resourceLimit(resource: WritableResource, plan: Principal['plan']): number {
  switch (resource) {
    case 'webhook_endpoints':
      return plan.webhooks === 'none' ? 0 : MAX_ENDPOINTS_PER_CLIENT;
    case 'saved_searches':
      return SAVED_SEARCH_LIMITS[plan.code];
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
