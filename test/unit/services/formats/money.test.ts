import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatGrouped,
  formatPlain,
  formatUsd,
  parseCents,
  parseDollars,
  roundCents,
  toCents,
} from '../../../../services/formats/money.ts';

describe('parseDollars', () => {
  it.each([
    ['$1,234.56', 1234.56],
    ['1,234.56', 1234.56],
    ['1234.5', 1234.5],
    ['1234', 1234],
    ['$0.00', 0],
    ['0', 0],
    ['.5', 0.5],
    [' $12.34 ', 12.34],
    ['$1,000,000.00', 1_000_000],
    ['0.1', 0.1],
    ['1.005', 1.01],
    ['1.004', 1],
    ['2.675', 2.68],
    ['0.125', 0.13],
    ['9.995', 10],
    ['1234.5678', 1234.57],
  ])('%s -> %d', (text, dollars) => {
    expect(parseDollars(text)).toEqual({ ok: true, value: dollars });
  });

  it.each([
    ['(12.00)', 'is negative'],
    ['-5.00', 'is negative'],
    ['1.234,56', 'is not a dollar amount'],
    ['$12,3x4', 'is not a dollar amount'],
    ['NaN', 'is not a dollar amount'],
    ['', 'is not a dollar amount'],
    ['$', 'is not a dollar amount'],
    ['1,23', 'is not a dollar amount'],
    ['12.', 'is not a dollar amount'],
    ['1e5', 'is not a dollar amount'],
    ['$$5', 'is not a dollar amount'],
    ['5 00', 'is not a dollar amount'],
    ['Infinity', 'is not a dollar amount'],
    ['99999999999999.00', 'is too large'],
  ])('%s is refused: %s', (text, reason) => {
    expect(parseDollars(text)).toEqual({ ok: false, reason });
  });
});

describe('parseCents', () => {
  it('reads zero-padded integer cents', () => {
    expect(parseCents('0000123456')).toEqual({ ok: true, value: 1234.56 });
    expect(parseCents('000000000000')).toEqual({ ok: true, value: 0 });
    expect(parseCents('7')).toEqual({ ok: true, value: 0.07 });
  });
  it('refuses anything but digits', () => {
    expect(parseCents('12.34')).toEqual({ ok: false, reason: 'is not an amount in cents' });
    expect(parseCents('-100')).toEqual({ ok: false, reason: 'is negative' });
    expect(parseCents('')).toEqual({ ok: false, reason: 'is not an amount in cents' });
    expect(parseCents('12 34')).toEqual({ ok: false, reason: 'is not an amount in cents' });
  });
});

describe('rounding', () => {
  it('rounds half a cent up without float drift', () => {
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(1.015)).toBe(1.02);
    expect(roundCents(2.675)).toBe(2.68);
    expect(roundCents(0.1 + 0.2)).toBe(0.3);
    expect(roundCents(1.0049)).toBe(1);
    expect(roundCents(-1.005)).toBe(-1.01);
    expect(toCents(1234.56)).toBe(123456);
    expect(toCents(0.29)).toBe(29);
  });
});

describe('formatting', () => {
  it('writes every layout back', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1_234_567.89)).toBe('$1,234,567.89');
    expect(formatGrouped(999.99)).toBe('999.99');
    expect(formatGrouped(1000)).toBe('1,000.00');
    expect(formatPlain(1234.5)).toBe('1234.50');
    expect(formatPlain(0.07)).toBe('0.07');
    expect(formatCents(1234.56, 10)).toBe('0000123456');
    expect(formatCents(0.29)).toBe('29');
  });
  it('round-trips through the parsers', () => {
    for (const d of [0, 0.01, 0.07, 0.29, 1.1, 12.34, 999.99, 1000, 123456.78, 9_999_999.99]) {
      expect(parseDollars(formatUsd(d))).toEqual({ ok: true, value: d });
      expect(parseDollars(formatGrouped(d))).toEqual({ ok: true, value: d });
      expect(parseDollars(formatPlain(d))).toEqual({ ok: true, value: d });
      expect(parseCents(formatCents(d, 12))).toEqual({ ok: true, value: d });
    }
  });
});
