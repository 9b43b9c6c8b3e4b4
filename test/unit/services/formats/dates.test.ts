import { describe, expect, it } from 'vitest';
import { formatDate, parseDate } from '../../../../services/formats/dates.ts';

describe('parseDate', () => {
  it.each([
    ['06/01/2024', 'MM/DD/YYYY', '2024-06-01'],
    ['6/1/2024', 'MM/DD/YYYY', '2024-06-01'],
    ['02/29/2024', 'MM/DD/YYYY', '2024-02-29'],
    ['2024-06-01', 'YYYY-MM-DD', '2024-06-01'],
    [' 2000-02-29 ', 'YYYY-MM-DD', '2000-02-29'],
    ['20241231', 'YYYYMMDD', '2024-12-31'],
  ] as const)('%s (%s) -> %s', (text, layout, iso) => {
    expect(parseDate(text, layout)).toEqual({ ok: true, value: iso });
  });

  it.each([
    ['02/30/2024', 'MM/DD/YYYY', 'is not a real calendar date'],
    ['02/29/2023', 'MM/DD/YYYY', 'is not a real calendar date'],
    ['1900-02-29', 'YYYY-MM-DD', 'is not a real calendar date'],
    ['13/01/2024', 'MM/DD/YYYY', 'is not a real calendar date'],
    ['04/31/2024', 'MM/DD/YYYY', 'is not a real calendar date'],
    ['00/10/2024', 'MM/DD/YYYY', 'is not a real calendar date'],
    ['20240001', 'YYYYMMDD', 'is not a real calendar date'],
    ['06/01/24', 'MM/DD/YYYY', 'is not a date (MM/DD/YYYY)'],
    ['2024-6-1', 'YYYY-MM-DD', 'is not a date (YYYY-MM-DD)'],
    ['2024-06-01', 'MM/DD/YYYY', 'is not a date (MM/DD/YYYY)'],
    ['06/01/2024', 'YYYY-MM-DD', 'is not a date (YYYY-MM-DD)'],
    ['2024061', 'YYYYMMDD', 'is not a date (YYYYMMDD)'],
    ['soon', 'YYYY-MM-DD', 'is not a date (YYYY-MM-DD)'],
    ['', 'YYYYMMDD', 'is not a date (YYYYMMDD)'],
    ['2024-06-01T00:00:00Z', 'YYYY-MM-DD', 'is not a date (YYYY-MM-DD)'],
  ] as const)('%s (%s) is refused: %s', (text, layout, reason) => {
    expect(parseDate(text, layout)).toEqual({ ok: false, reason });
  });
});

describe('formatDate', () => {
  it('writes each layout and parses back', () => {
    expect(formatDate('2024-06-01', 'MM/DD/YYYY')).toBe('06/01/2024');
    expect(formatDate('2024-06-01', 'YYYYMMDD')).toBe('20240601');
    expect(formatDate('2024-06-01', 'YYYY-MM-DD')).toBe('2024-06-01');
    for (const layout of ['MM/DD/YYYY', 'YYYY-MM-DD', 'YYYYMMDD'] as const)
      expect(parseDate(formatDate('2023-12-31', layout), layout)).toEqual({ ok: true, value: '2023-12-31' });
  });
});
