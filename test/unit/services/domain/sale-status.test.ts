import { describe, expect, it } from 'vitest';
import { saleStatus } from '../../../../services/domain/sale-status.ts';

describe('saleStatus', () => {
  it.each([
    ['2025-05-19', 'scheduled'],
    ['2025-05-20', 'in_progress'],
    ['2025-05-21', 'in_progress'],
    ['2025-05-22', 'in_progress'],
    ['2025-05-23', 'completed'],
  ])('on %s the 2025-05-20..22 sale is %s', (today, status) => {
    expect(saleStatus('2025-05-20', '2025-05-22', today)).toBe(status);
  });

  it('a one-day sale is in progress on its day only', () => {
    expect(['2025-05-27', '2025-05-28', '2025-05-29'].map((d) => saleStatus('2025-05-28', '2025-05-28', d))).toEqual([
      'scheduled',
      'in_progress',
      'completed',
    ]);
  });
});
