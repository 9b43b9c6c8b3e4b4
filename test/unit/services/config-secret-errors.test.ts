import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../services/config.ts';

// A config error names a secret-bearing variable without its value: it once printed the bad value
// as it was given, so a short KEY_HASH_SECRET or a REDIS_URL with a password landed in terminals
// and CI logs.

const dir = mkdtempSync(join(tmpdir(), 'taxcert-config-secrets-'));
const base = { NODE_ENV: 'test', DATABASE_PATH: join(dir, 'taxcert.db') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function messageOf(env: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...env });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('a config error keeps secrets out of its message', () => {
  it.each([
    ['KEY_HASH_SECRET', 'hunter2-too-short', /^KEY_HASH_SECRET: must be at least 32 characters \(value not shown: it is a secret\)$/],
    ['REDIS_URL', 'http://:hunter2@cache.internal:6379', /^REDIS_URL: .*\(value not shown: it may hold a password\)$/],
    ['REDIS_URL', 'redis://user:hunter2/x@cache:notaport', /^REDIS_URL: .*\(value not shown: it may hold a password\)$/],
    ['OPENSEARCH_URL', 'ftp://admin:hunter2@search.internal', /^OPENSEARCH_URL: .*\(value not shown: it may hold a password\)$/],
    ['OPENSEARCH_URL', 'ftp://search.internal/?token=hunter2', /^OPENSEARCH_URL: .*\(value not shown: it may hold a password\)$/],
  ])('%s=%s', (name, value, message) => {
    const text = messageOf({ [name]: value });
    expect(text).toMatch(message);
    expect(text).not.toContain('hunter2');
  });

  it('still shows a bad value that cannot hold a secret, to help fix it', () => {
    expect(messageOf({ PORT: 'abc' })).toBe('PORT: Invalid input: expected number, received NaN (got "abc")');
    expect(messageOf({ REDIS_URL: 'http://cache.internal:6379' })).toMatch(/\(got "http:\/\/cache\.internal:6379"\)$/);
  });
});
