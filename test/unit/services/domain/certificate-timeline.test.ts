import { describe, expect, it } from 'vitest';
import { soldJune2024 } from '../../../helpers/timeline-facts.ts';
import {
  certificateTimeline,
  firstSaleDateNotExpiredBefore,
  lastSaleDateDeedEligibleBy,
} from '../../../../services/domain/certificate-timeline.ts';
import { expiryDate } from '../../../../services/domain/redemption-quote.ts';

const sold = soldJune2024;

describe('certificate timeline (the timeline example of chapter-197.md section 6)', () => {
  it('sale June 1, 2024: interest from June 1, deed application from April 1, 2026, expiry June 1, 2031', () => {
    expect(certificateTimeline(sold(), '2025-01-15')).toEqual({
      dates: {
        sale: '2024-06-01',
        interest_starts: '2024-06-01',
        deed_application_earliest: '2026-04-01',
        expires: '2031-06-01',
        tax_deed_application: null,
        redeemed: null,
      },
      next_deadline: { name: 'deed_application_earliest', date: '2026-04-01', days_left: 441 },
    });
  });

  it('after the earliest application day the expiry is next; on a deadline day it is 0 days away', () => {
    expect(certificateTimeline(sold(), '2026-04-01').next_deadline).toEqual({
      name: 'deed_application_earliest',
      date: '2026-04-01',
      days_left: 0,
    });
    expect(certificateTimeline(sold(), '2026-04-02').next_deadline).toMatchObject({ name: 'expires', date: '2031-06-01' });
    expect(certificateTimeline(sold(), '2031-06-02').next_deadline).toBeNull();
  });

  it('a sale before June 1 still starts interest on June 1', () => {
    expect(certificateTimeline(sold({ sale_date: '2024-05-28' }), '2024-05-28').dates).toMatchObject({
      interest_starts: '2024-06-01',
      expires: '2031-05-28',
    });
  });

  it('a deed application on record stops the expiry', () => {
    const applied = sold({ status: 'tax_deed_applied', tax_deed_application_date: '2026-05-15' });
    expect(certificateTimeline(applied, '2026-06-01')).toMatchObject({
      dates: { expires: null, tax_deed_application: '2026-05-15' },
      next_deadline: null,
    });
    expect(certificateTimeline(applied, '2026-05-01').dates.expires).toBe('2031-06-01');
  });

  it('no deadline for a certificate no longer outstanding', () => {
    expect(certificateTimeline(sold({ status: 'redeemed', redeemed_date: '2025-01-02' }), '2024-07-01').next_deadline).toBeNull();
    expect(certificateTimeline(sold({ status: 'cancelled' }), '2024-07-01').next_deadline).toBeNull();
    expect(certificateTimeline(sold({ status: 'available' }), '2024-07-01').next_deadline).toBeNull();
  });
});

describe('search filter bounds', () => {
  it('deed_eligible_by: sale years whose April 1 + 2 is on or before the day', () => {
    expect(lastSaleDateDeedEligibleBy('2026-04-01')).toBe('2024-12-31');
    expect(lastSaleDateDeedEligibleBy('2026-03-31')).toBe('2023-12-31');
    expect(lastSaleDateDeedEligibleBy('2028-02-29')).toBe('2025-12-31');
  });

  it('expires_before: exactly the sale dates whose expiry is before the day, leap days included', () => {
    for (const before of ['2031-06-01', '2031-03-01', '2032-02-29', '2032-03-01', '2031-01-01']) {
      const bound = firstSaleDateNotExpiredBefore(before);
      expect(expiryDate(bound) >= before).toBe(true);
      const earlier = new Date(Date.parse(`${bound}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      expect(expiryDate(earlier) < before).toBe(true);
    }
    expect(firstSaleDateNotExpiredBefore('2031-03-01')).toBe('2024-02-29');
    expect(firstSaleDateNotExpiredBefore('2032-02-29')).toBe('2025-03-01');
  });
});
