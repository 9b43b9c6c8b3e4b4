import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../../../services/api/access/authenticate.ts';
import { LimitReachedError, resourceLimit } from '../../../../../services/api/writes/limits.ts';
import { MAX_ENDPOINTS_PER_CLIENT } from '../../../../../services/control/feed/webhook-endpoints.ts';

const plan = (webhooks: 'none' | 'beta' | 'included') => ({ webhooks }) as Principal['plan'];

describe('resourceLimit', () => {
  it("keeps the control plane's webhook endpoint limit on every plan with webhooks, none without", () => {
    expect(resourceLimit('webhook_endpoints', plan('none'))).toBe(0);
    expect(resourceLimit('webhook_endpoints', plan('beta'))).toBe(MAX_ENDPOINTS_PER_CLIENT);
    expect(resourceLimit('webhook_endpoints', plan('included'))).toBe(MAX_ENDPOINTS_PER_CLIENT);
  });

  it('refuses with 403 limit_reached naming the resource, the limit and the plan', () => {
    const err = new LimitReachedError('webhook_endpoints', 16, 'growth');
    expect(err.status).toBe(403);
    expect(err.code).toBe('limit_reached');
    expect(err.message).toBe('you already have 16 webhook endpoints, the most the growth plan allows; delete one first');
    expect(err.details).toEqual({ resource: 'webhook_endpoints', limit: 16, plan: 'growth' });
  });
});
