import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseBody } from '../../../../../services/api/writes/body.ts';
import { requestFingerprint } from '../../../../../services/api/writes/fingerprint.ts';

describe('requestFingerprint', () => {
  it('is the same for the same request whatever the key order, and differs by method, path or any value', () => {
    const a = requestFingerprint('POST', '/api/v1/x', { b: [1, { d: 1, c: 2 }], a: null });
    expect(requestFingerprint('post', '/api/v1/x', { a: null, b: [1, { c: 2, d: 1 }] })).toBe(a);
    expect(requestFingerprint('PATCH', '/api/v1/x', { a: null, b: [1, { c: 2, d: 1 }] })).not.toBe(a);
    expect(requestFingerprint('POST', '/api/v1/y', { a: null, b: [1, { c: 2, d: 1 }] })).not.toBe(a);
    expect(requestFingerprint('POST', '/api/v1/x', { a: null, b: [{ c: 2, d: 1 }, 1] })).not.toBe(a);
    expect(requestFingerprint('DELETE', '/api/v1/x', undefined)).toBe(requestFingerprint('DELETE', '/api/v1/x', null));
  });
});

describe('parseBody', () => {
  const schema = z.strictObject({ name: z.string().max(3), n: z.number().optional() });
  it('names each bad field in the words of query parameters', () => {
    const bad = parseBody(schema, { name: 'long', n: 'x', extra: 1 });
    expect(bad.error?.issues.map((i) => i.parameter).sort()).toEqual(['extra', 'n', 'name']);
    expect(bad.error?.issues.find((i) => i.parameter === 'extra')?.message).toContain('unknown parameter');
  });
  it('refuses anything but an object as a whole, and reads a good one', () => {
    for (const body of [null, undefined, [], 'x', 3]) expect(parseBody(schema, body).error?.issues[0]?.parameter).toBe('body');
    expect(parseBody(schema, { name: 'ab' })).toEqual({ value: { name: 'ab' } });
  });
});
