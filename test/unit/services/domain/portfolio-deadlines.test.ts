import { describe, expect, it } from 'vitest';
import { soldJune2024 } from '../../../helpers/timeline-facts.ts';
import { alertSaleDateRanges, dueDeadlineAlerts } from '../../../../services/domain/portfolio-deadlines.ts';

const sold = soldJune2024;

describe('portfolio deadline alerts due on a Florida day', () => {
  it('the deed application opens: on its day, and up to 7 days late, never before', () => {
    expect(dueDeadlineAlerts(sold(), '2026-03-31')).toEqual([]);
    expect(dueDeadlineAlerts(sold(), '2026-04-01')).toEqual([
      { kind: 'deed_application_opens', horizon: 0, date: '2026-04-01', days_left: 0 },
    ]);
    expect(dueDeadlineAlerts(sold(), '2026-04-08')).toEqual([
      { kind: 'deed_application_opens', horizon: 0, date: '2026-04-01', days_left: -7 },
    ]);
    expect(dueDeadlineAlerts(sold(), '2026-04-09')).toEqual([]);
  });

  it('expiry: the nearest horizon reached of 90, 30 and 7 days, while the day is still ahead', () => {
    expect(dueDeadlineAlerts(sold(), '2031-03-02')).toEqual([]);
    expect(dueDeadlineAlerts(sold(), '2031-03-03')).toEqual([{ kind: 'expires', horizon: 90, date: '2031-06-01', days_left: 90 }]);
    expect(dueDeadlineAlerts(sold(), '2031-04-15')).toEqual([{ kind: 'expires', horizon: 90, date: '2031-06-01', days_left: 47 }]);
    // A missed 30-day day: 20 days left owes the 30-day alert.
    expect(dueDeadlineAlerts(sold(), '2031-05-12')).toEqual([{ kind: 'expires', horizon: 30, date: '2031-06-01', days_left: 20 }]);
    expect(dueDeadlineAlerts(sold(), '2031-05-25')).toEqual([{ kind: 'expires', horizon: 7, date: '2031-06-01', days_left: 7 }]);
    expect(dueDeadlineAlerts(sold(), '2031-05-31')).toEqual([{ kind: 'expires', horizon: 7, date: '2031-06-01', days_left: 1 }]);
    // The expiry day itself is expired (florida-law.md): nothing left to warn of.
    expect(dueDeadlineAlerts(sold(), '2031-06-01')).toEqual([]);
  });

  it('nothing for a certificate with no deadline to act on', () => {
    for (const status of ['redeemed', 'cancelled', 'lands_available'])
      expect(dueDeadlineAlerts(sold({ status, redeemed_date: status === 'redeemed' ? '2025-01-02' : null }), '2026-04-01')).toEqual([]);
    // A deed application on record stops the term and makes the opening moot.
    const applied = sold({ status: 'tax_deed_applied', tax_deed_application_date: '2026-04-01' });
    expect(dueDeadlineAlerts(applied, '2026-04-01')).toEqual([]);
    expect(dueDeadlineAlerts(applied, '2031-05-25')).toEqual([]);
  });
});

describe('the sale dates a followed group is read by', () => {
  it('hold every certificate that owes an alert on the day, through a leap year and the catch-up days', () => {
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
    const iso = (d: number) => new Date(d * 86_400_000).toISOString().slice(0, 10);
    for (const today of ['2026-04-01', '2026-04-08', '2026-04-09', '2028-02-29', '2031-03-03', '2031-12-31']) {
      const ranges = alertSaleDateRanges(today);
      for (let d = day('2017-01-01'); d <= day('2026-12-31'); d++) {
        const sale = iso(d);
        const owes = dueDeadlineAlerts({ status: 'sold', sale_date: sale, redeemed_date: null, tax_deed_application_date: null }, today);
        if (owes.length > 0)
          expect(
            ranges.some((r) => sale >= r.gte && sale <= r.lte),
            `${today} ${sale}`,
          ).toBe(true);
      }
    }
  });
});
