import { describe, expect, it } from 'vitest';
import { percentUsed } from '../../../../../services/api/routes/account/read.ts';
import { overageAmountCents } from '../../../../../services/control/billing/billing.ts';
import { packExpiry } from '../../../../../services/control/billing/packs.ts';
import { dayOf, monthOf, nextMonthStart, secondsToNextMonth } from '../../../../../services/control/billing/periods.ts';
import { testKeyQuota } from '../../../../../services/control/billing/plans.ts';

describe('overage amount (spec 8.4)', () => {
  it.each([
    [0, 0],
    [1, 5],
    [10, 5],
    [11, 10],
    [20, 10],
    [21, 15],
    [1000, 500],
    [1001, 505],
  ])('%i credits bill %i cents', (credits, cents) => {
    expect(overageAmountCents(credits)).toBe(cents);
  });
});

describe('usage percent', () => {
  it('rounds half-up to 2 decimals', () => {
    expect(percentUsed(1, 3)).toBe(33.33);
    expect(percentUsed(2, 3)).toBe(66.67);
    expect(percentUsed(1, 8)).toBe(12.5);
    expect(percentUsed(1, 80_000)).toBe(0);
    expect(percentUsed(1, 40_000)).toBe(0); // 0.0025
    expect(percentUsed(1, 20_000)).toBe(0.01); // exactly 0.005: half goes up
    expect(percentUsed(3, 2)).toBe(150);
    expect(percentUsed(5, 0)).toBe(0);
  });
});

describe('calendar', () => {
  it('months and days are UTC; Retry-After runs to the next month', () => {
    const now = new Date('2026-12-31T23:59:30.500Z');
    expect(monthOf(now)).toBe('2026-12');
    expect(dayOf(now)).toBe('2026-12-31');
    expect(nextMonthStart(now).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(secondsToNextMonth(now)).toBe(30);
  });

  it('packs expire 12 months after purchase', () => {
    expect(packExpiry(new Date('2026-03-15T10:00:00Z')).toISOString()).toBe('2027-03-15T10:00:00.000Z');
  });

  it('test keys get a tenth of the live quota, at most 10,000', () => {
    expect(testKeyQuota(500)).toBe(50);
    expect(testKeyQuota(10_000)).toBe(1_000);
    expect(testKeyQuota(2_000_000_000)).toBe(10_000);
  });
});
