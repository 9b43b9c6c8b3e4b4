import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../../../services/api/access/authenticate.ts';
import { LimitReachedError, PositionLimitReachedError, resourceLimit } from '../../../../../services/api/writes/limits.ts';
import { MAX_ENDPOINTS_PER_CLIENT } from '../../../../../services/control/feed/webhook-endpoints.ts';

const plan = (webhooks: 'none' | 'beta' | 'included') => ({ webhooks }) as Principal['plan'];

describe('resourceLimit', () => {
  it("keeps the control plane's webhook endpoint limit on every plan with webhooks, none without", () => {
    expect(resourceLimit('webhook_endpoints', plan('none'))).toBe(0);
    expect(resourceLimit('webhook_endpoints', plan('beta'))).toBe(MAX_ENDPOINTS_PER_CLIENT);
    expect(resourceLimit('webhook_endpoints', plan('included'))).toBe(MAX_ENDPOINTS_PER_CLIENT);
  });

  it('grows the saved-search limit with the plan, webhooks or not', () => {
    const limits = (['free_trial', 'developer', 'mcp_starter', 'pro', 'growth', 'lead_feed', 'enterprise'] as const).map((code) =>
      resourceLimit('saved_searches', { code, webhooks: 'none' } as Principal['plan']),
    );
    expect(limits).toEqual([3, 10, 10, 25, 100, 100, 500]);
    expect(new LimitReachedError('saved_searches', 3, 'free_trial').message).toBe(
      'you already have 3 saved searches, the most the free_trial plan allows; delete one first',
    );
  });

  it('keeps the saved-search tiers for portfolios and at least one full request of positions per portfolio', () => {
    const codes = ['free_trial', 'developer', 'mcp_starter', 'pro', 'growth', 'lead_feed', 'enterprise'] as const;
    const of = (resource: 'portfolios' | 'portfolio_positions') =>
      codes.map((code) => resourceLimit(resource, { code, webhooks: 'none' } as Principal['plan']));
    expect(of('portfolios')).toEqual([3, 10, 10, 25, 100, 100, 500]);
    expect(of('portfolio_positions')).toEqual([10_000, 10_000, 10_000, 25_000, 50_000, 50_000, 100_000]);
    const err = new PositionLimitReachedError({ portfolioId: 'pf_x', limit: 10_000, plan: 'developer', held: 9_990, adding: 20 });
    expect(err.status).toBe(403);
    expect(err.code).toBe('limit_reached');
    expect(err.details).toEqual({
      resource: 'portfolio_positions',
      limit: 10_000,
      plan: 'developer',
      portfolio_id: 'pf_x',
      held: 9_990,
      adding: 20,
    });
  });

  it('refuses with 403 limit_reached naming the resource, the limit and the plan', () => {
    const err = new LimitReachedError('webhook_endpoints', 16, 'growth');
    expect(err.status).toBe(403);
    expect(err.code).toBe('limit_reached');
    expect(err.message).toBe('you already have 16 webhook endpoints, the most the growth plan allows; delete one first');
    expect(err.details).toEqual({ resource: 'webhook_endpoints', limit: 16, plan: 'growth' });
  });
});
