import { describe, expect, it } from 'vitest';
import type { Client } from '../../../../services/control/billing/clients.ts';
import { mapPlanRow, type Plan } from '../../../../services/control/billing/plans.ts';
import type { ClientUsage } from '../../../../services/control/billing/usage.ts';
import { type OverviewInput, overviewModel } from '../../../../services/web/overview.ts';

const plan = (over: Partial<Plan> = {}): Plan => ({
  ...mapPlanRow({
    code: 'free_trial',
    name: 'Free Trial',
    price_usd_cents: 0,
    monthly_credits: 500,
    rpm: 30,
    rest: 1,
    mcp: 0,
    csv: 0,
    webhooks: 'none',
    overage: 0,
  }),
  ...over,
});
const client: Client = {
  id: 'cli_x',
  name: 'Acme',
  plan: 'free_trial',
  status: 'active',
  subscription: 'active',
  monthlyCredits: null,
  rpm: null,
  createdAt: '2026-05-01T10:00:00.000Z',
  statusReason: null,
};
const detail = (over: Partial<ClientUsage> = {}): ClientUsage => ({
  client_id: 'cli_x',
  plan: 'free_trial',
  status: 'active',
  subscription: 'active',
  month: '2026-05',
  events: { live: 12, test: 3 },
  buckets: [{ bucket: 'trial', period: 'signup', granted: 500, remaining: 488, capped_at: null }],
  packs: [],
  overage_credits_this_month: 0,
  ...over,
});
const input = (over: Partial<OverviewInput> = {}): OverviewInput => ({
  client,
  plan: plan(),
  verified: true,
  email: 'a@example.com',
  usage: { events_count: 12, monthly_quota: 500, percent_used: 2.4, reset_date: '2026-06-01T00:00:00.000Z', plan: 'free_trial' },
  detail: detail(),
  overage: { credits: 0, amountUsdCents: 0 },
  days: [{ day: '2026-05-03', requests: 12 }],
  now: new Date('2026-05-04T12:00:00Z'),
  ...over,
});

describe('the overview in words', () => {
  it('prints the usage object as the API reports it, and the trial bucket', () => {
    const model = overviewModel(input());
    expect(model.usage).toEqual({ requests: '12', quota: '500', percent: '2.40 %', resets: '1 June 2026, 00:00 UTC', plan: 'free_trial' });
    expect(model.credits).toEqual({ label: 'Trial credits left', remaining: '488', granted: '500' });
    expect(model.plan).toEqual({ name: 'Free Trial', rpm: '30', pastDue: false });
    expect(model.testRequests).toBe('3');
    expect(model.chart.total).toBe(12);
    expect(model.suspension).toBeNull();
  });

  it('the trial: full access for seven days, then the cap of spec 8.3, said as it applies', () => {
    expect(overviewModel(input()).trial?.note).toBe(
      'Full access until 8 May 2026, 10:00 UTC. After that, whatever is left is capped at 100 credits. Choosing a plan removes the cap.',
    );
    const capped = input({
      now: new Date('2026-05-09T12:00:00Z'),
      detail: detail({
        buckets: [{ bucket: 'trial', period: 'signup', granted: 500, remaining: 100, capped_at: '2026-05-09T11:00:00.000Z' }],
      }),
    });
    expect(overviewModel(capped).trial?.note).toBe(
      "Your trial's seven days of full access ended on 8 May 2026, so your balance was capped at 100 credits. When they are used up, requests are refused (402) until you choose a plan.",
    );
    expect(overviewModel(capped).credits).toEqual({ label: 'Trial credits left', remaining: '100', granted: '500' });
  });

  it('a paid plan: the month bucket, packs that have not expired, overage as billed so far', () => {
    const developer = plan({ code: 'developer', name: 'Developer', monthlyCredits: 10_000, rpm: 60, overage: true });
    const model = overviewModel(
      input({
        plan: developer,
        client: { ...client, plan: 'developer', subscription: 'past_due' },
        detail: detail({
          buckets: [
            { bucket: 'monthly', period: '2026-04', granted: 10_000, remaining: 3, capped_at: null },
            { bucket: 'monthly', period: '2026-05', granted: 10_000, remaining: 0, capped_at: null },
          ],
          packs: [
            { id: 'pck_a', pack: 'starter', remaining: 250, expires_at: '2027-01-02T00:00:00.000Z', expired: false },
            { id: 'pck_b', pack: 'bulk', remaining: 0, expires_at: '2026-01-02T00:00:00.000Z', expired: true },
          ],
        }),
        overage: { credits: 1_234, amountUsdCents: 620 },
      }),
    );
    expect(model.credits).toEqual({ label: 'Credits left this month', remaining: '0', granted: '10,000' });
    expect(model.trial).toBeNull();
    expect(model.plan.pastDue).toBe(true);
    expect(model.packs).toEqual([{ name: 'Starter pack', remaining: '250', credits: '1,000', expires: '2 January 2027' }]);
    expect(model.overage).toEqual({ applies: true, credits: '1,234', amount: '6.20 USD' });
  });

  it('a suspended client: its status and the operator’s reason; Enterprise: unlimited by contract', () => {
    const suspended = overviewModel(input({ client: { ...client, status: 'suspended', statusReason: 'Unpaid invoice.' } }));
    expect(suspended.suspension).toEqual({ status: 'suspended', reason: 'Unpaid invoice.' });
    const enterprise = overviewModel(
      input({
        plan: plan({ code: 'enterprise', name: 'Enterprise', monthlyCredits: 2_000_000_000 }),
        usage: {
          events_count: 5,
          monthly_quota: 2_000_000_000,
          percent_used: 0,
          reset_date: '2026-06-01T00:00:00.000Z',
          plan: 'enterprise',
        },
        detail: detail({ buckets: [] }),
      }),
    );
    expect(enterprise.usage.quota).toBe('unlimited (contract)');
    expect(enterprise.usage.percent).toBe('0.00 %');
  });
});
