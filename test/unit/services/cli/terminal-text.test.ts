import { describe, expect, it } from 'vitest';
import { printable, terminalSafeJson } from '../../../../services/cli/terminal-text.ts';

// County text reaches the operator's terminal through quarantine list and failed-job reasons;
// only visible characters may, so a row cannot clear, retitle or recolour the terminal.

describe('printable', () => {
  it('escapes C0, DEL, C1, line separators and bidi controls, and keeps other text', () => {
    expect(printable('a\u001b[2Jb')).toBe('a\\x1b[2Jb');
    expect(printable('\u0000\u0007\t\n\r\u007f\u0085\u009b')).toBe('\\x00\\x07\\t\\n\\r\\x7f\\x85\\x9b');
    expect(printable('\u202eabc\u2066\u2069\u200f\u061c\u2028')).toBe('\\u202eabc\\u2066\\u2069\\u200f\\u061c\\u2028');
    expect(printable('Ówner Ñ 株式会社 "x" \\ $1')).toBe('Ówner Ñ 株式会社 "x" \\ $1');
  });
});

describe('terminalSafeJson', () => {
  it('writes what JSON.stringify leaves raw as \\u escapes, and parses back to the same value', () => {
    const value = { raw: 'a\u007f\u009b\u202eb\u001b' };
    const json = terminalSafeJson(JSON.stringify(value));
    expect(json).toBe('{"raw":"a\\u007f\\u009b\\u202eb\\u001b"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
