import { describe, expect, it } from 'vitest';
import { presentedKey } from '../../../../../services/api/access/authenticate.ts';
import { rateHeaders, retryAfterSeconds } from '../../../../../services/api/access/headers.ts';
import { formatKey, hashKey, keyPattern, randomBase62 } from '../../../../../services/control/billing/api-keys.ts';
import { redactUrl } from '../../../../../services/logger.ts';

describe('key format', () => {
  it('is {prefix}_{live|test}_{32 base62} and matches its pattern', () => {
    for (const env of ['live', 'test'] as const) {
      const key = formatKey('txc', env);
      expect(key).toMatch(new RegExp(`^txc_${env}_[0-9A-Za-z]{32}$`));
      expect(keyPattern('txc').test(key)).toBe(true);
      expect(keyPattern('abc').test(key)).toBe(false);
    }
    expect(keyPattern('txc').test('txc_prod_0123456789abcdefghijABCDEFGHIJ01')).toBe(false);
    expect(keyPattern('txc').test(`txc_live_${'a'.repeat(31)}-`)).toBe(false);
  });

  it('draws every base62 character, never the same key twice', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomBase62()).join(''));
    expect(seen.size).toBe(62);
    const keys = new Set(Array.from({ length: 1000 }, () => formatKey('txc', 'live')));
    expect(keys.size).toBe(1000);
  });

  it('hashes with HMAC-SHA256 under the secret (hex), different per secret', () => {
    // RFC 4231 test case 2.
    expect(hashKey('Jefe', 'what do ya want for nothing?')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    expect(hashKey('a'.repeat(32), 'k')).not.toBe(hashKey('b'.repeat(32), 'k'));
  });
});

describe('presentedKey (spec 5.3-5.5)', () => {
  const k = 'txc_live_abc';
  it.each<[string, Record<string, string | undefined>, string | null]>([
    ['Bearer', { authorization: `Bearer ${k}` }, k],
    ['bearer, any case', { authorization: `bEaReR ${k}` }, k],
    ['X-API-Key', { 'x-api-key': k }, k],
    ['both equal', { authorization: `Bearer ${k}`, 'x-api-key': k }, k],
    ['both different', { authorization: `Bearer ${k}`, 'x-api-key': `${k}x` }, null],
    ['two spaces', { authorization: `Bearer  ${k}` }, null],
    ['trailing space', { authorization: `Bearer ${k} ` }, null],
    ['Basic', { authorization: `Basic ${k}` }, null],
    ['Bearer without key', { authorization: 'Bearer ' }, null],
    ['Basic beside a good X-API-Key', { authorization: 'Basic xyz', 'x-api-key': k }, null],
    ['none', {}, null],
  ])('%s', (_name, headers, expected) => {
    expect(presentedKey(headers)).toBe(expected);
  });
});

describe('rate headers', () => {
  it('give the limit, the remaining count, the reset as Unix seconds and the RateLimit field', () => {
    const d = { allowed: true, limit: 60, remaining: 12, resetAtMs: 1_800_000_000_400, resetInMs: 41_400, checked: true };
    expect(rateHeaders(d)).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '12',
      'x-ratelimit-reset': '1800000001',
      ratelimit: '"default";r=12;t=42',
    });
    expect(retryAfterSeconds(d)).toBe(42);
    expect(retryAfterSeconds({ ...d, resetInMs: 0 })).toBe(1);
  });
});

describe('log redaction', () => {
  it('masks api_key in URLs', () => {
    expect(redactUrl('/api/v1/counties?api_key=txc_live_secret&limit=2')).toBe('/api/v1/counties?api_key=[redacted]&limit=2');
    expect(redactUrl('/api/v1/x?limit=1&API_KEY=abc')).toBe('/api/v1/x?limit=1&API_KEY=[redacted]');
    expect(redactUrl('/api/v1/x?limit=1')).toBe('/api/v1/x?limit=1');
  });
});
