import { describe, expect, it } from 'vitest';
import { dayOf, isoOf, parseIsoDay } from '../../../../services/domain/calendar-days.ts';

describe('isoOf', () => {
  it('writes every day from 1900 to 2200 as a Date does', () => {
    for (let day = dayOf(1900, 1, 1); day <= dayOf(2200, 12, 31); day++)
      expect(isoOf(day)).toBe(new Date(day * 86_400_000).toISOString().slice(0, 10));
  });

  it('round-trips through parseIsoDay and refuses days that do not exist', () => {
    expect(parseIsoDay('2024-02-29')).toBe(dayOf(2024, 2, 29));
    expect(parseIsoDay('2025-02-29')).toBeUndefined();
    expect(parseIsoDay('2100-02-29')).toBeUndefined();
    expect(parseIsoDay('2000-02-29')).toBe(dayOf(2000, 2, 29));
    expect(isoOf(0)).toBe('1970-01-01');
  });
});
