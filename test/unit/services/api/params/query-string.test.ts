import { describe, expect, it } from 'vitest';
import { MALFORMED, parseQueryString } from '../../../../../services/api/params/query-string.ts';

describe('parseQueryString', () => {
  it('decodes plus and percent-encoding and collects repeated names', () => {
    expect(parseQueryString('query=smith+%26+sons&county=a&county=b')).toEqual({ query: 'smith & sons', county: ['a', 'b'] });
  });

  it('reports broken percent-encoding by parameter name instead of guessing', () => {
    const parsed = parseQueryString('query=%E0%A4%A&limit=5');
    expect(parsed).toEqual({ limit: '5' });
    expect(parsed[MALFORMED]).toEqual(['query']);
  });
});
