import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ConfigError, EnvSchema, loadConfig } from '../../../services/config.ts';
import { opensearchNodes } from '../../../services/engine/client.ts';

const dir = mkdtempSync(join(tmpdir(), 'taxcert-config-'));
const base = { NODE_ENV: 'test', DATABASE_PATH: join(dir, 'taxcert.db') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig(base);
    expect(c).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      OPENSEARCH_PORT: 9200,
      OPENSEARCH_URL: 'http://127.0.0.1:9200',
      OPENSEARCH_LOCAL: true,
      REDIS_URL: 'redis://127.0.0.1:6379',
      INDEX_PREFIX: 'taxcert',
      KEY_PREFIX: 'txc',
      LOG_LEVEL: 'info',
    });
    expect(c.PARCEL_BASE_URL).toMatch(/^https:\/\//);
  });

  it('gives each INDEX_PREFIX its own default database, so two stacks never share one', () => {
    const secret = { KEY_HASH_SECRET: 'x'.repeat(32), WEBHOOK_SECRET_KEY: 'w'.repeat(32) };
    expect(loadConfig(secret).DATABASE_PATH).toBe(join(process.cwd(), 'data', 'taxcert.db'));
    expect(loadConfig({ ...secret, INDEX_PREFIX: 'other' }).DATABASE_PATH).toBe(join(process.cwd(), 'data', 'other.db'));
    expect(loadConfig({ ...secret, INDEX_PREFIX: 'other', DATABASE_PATH: '/tmp/x.db' }).DATABASE_PATH).toBe('/tmp/x.db');
  });

  it('is production unless NODE_ENV chooses otherwise: no silent test-mode billing or loopback webhooks', () => {
    const unset = { DATABASE_PATH: join(dir, 'taxcert.db') };
    expect(() => loadConfig(unset)).toThrow(/^KEY_HASH_SECRET: required when NODE_ENV=production$/);
    const prod = loadConfig({ ...unset, KEY_HASH_SECRET: 'x'.repeat(32), WEBHOOK_SECRET_KEY: 'w'.repeat(32) });
    expect(prod).toMatchObject({ NODE_ENV: 'production', BILLING_PROVIDER: 'none' });
    expect(loadConfig({ ...unset, NODE_ENV: 'development' })).toMatchObject({ NODE_ENV: 'development', BILLING_PROVIDER: 'test-mode' });
  });

  it('knows whether LOG_LEVEL was given', () => {
    expect(loadConfig(base).LOG_LEVEL_SET).toBe(false);
    expect(loadConfig({ ...base, LOG_LEVEL: 'info' }).LOG_LEVEL_SET).toBe(true);
  });

  it('uses an external OpenSearch when OPENSEARCH_URL is set', () => {
    const c = loadConfig({ ...base, OPENSEARCH_URL: 'https://search.internal:9200' });
    expect(c).toMatchObject({ OPENSEARCH_URL: 'https://search.internal:9200', OPENSEARCH_LOCAL: false });
  });

  it('takes the nodes of a cluster as a comma-separated OPENSEARCH_URL', () => {
    const c = loadConfig({ ...base, OPENSEARCH_URL: 'http://os1:9200, http://os2:9200,http://os3:9200' });
    expect(c.OPENSEARCH_URL).toBe('http://os1:9200,http://os2:9200,http://os3:9200');
    expect(opensearchNodes(c.OPENSEARCH_URL)).toEqual(['http://os1:9200', 'http://os2:9200', 'http://os3:9200']);
    expect(() => loadConfig({ ...base, OPENSEARCH_URL: 'http://os1:9200,os2' })).toThrow(
      /^OPENSEARCH_URL: must be an http\(s\) URL, or several separated by commas/,
    );
  });

  it('puts the control plane on PostgreSQL when DATABASE_URL is set, and names a bad one', () => {
    expect(loadConfig(base).DATABASE_URL).toBeUndefined();
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://taxcert@db:5432/taxcert' }).DATABASE_URL).toBe(
      'postgres://taxcert@db:5432/taxcert',
    );
    expect(loadConfig({ ...base, DATABASE_URL: 'postgresql://db/taxcert' }).DATABASE_URL).toBe('postgresql://db/taxcert');
    expect(() => loadConfig({ ...base, DATABASE_URL: 'mysql://db/taxcert' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DATABASE_URL: 'mysql://db/taxcert' })).toThrow(
      /^DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
  });

  it('leaves primary shards to the mapping file unless OPENSEARCH_SHARDS is set', () => {
    expect(loadConfig(base).OPENSEARCH_SHARDS).toBeUndefined();
    expect(loadConfig({ ...base, OPENSEARCH_SHARDS: '3' }).OPENSEARCH_SHARDS).toBe(3);
    expect(() => loadConfig({ ...base, OPENSEARCH_SHARDS: '0' })).toThrow(/^OPENSEARCH_SHARDS: /);
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT: .*\(got "abc"\)$/],
    [{ PORT: '70000' }, /^PORT: /],
    [{ REDIS_URL: 'http://x' }, /^REDIS_URL: /],
    [{ INDEX_PREFIX: 'Bad Prefix' }, /^INDEX_PREFIX: must be lowercase/],
    [{ KEY_PREFIX: 'tx_c' }, /^KEY_PREFIX: must be 2-16 letters or digits/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
    [{ PARCEL_BASE_URL: 'not a url' }, /^PARCEL_BASE_URL: /],
    [{ NODE_ENV: 'production' }, /^KEY_HASH_SECRET: required when NODE_ENV=production$/],
    [{ KEY_HASH_SECRET: 'short' }, /^KEY_HASH_SECRET: must be at least 32 characters/],
    // The key that seals webhook signing secrets is never generated in production either.
    [{ NODE_ENV: 'production', KEY_HASH_SECRET: 'x'.repeat(32) }, /^WEBHOOK_SECRET_KEY: required when NODE_ENV=production$/],
    [{ WEBHOOK_SECRET_KEY: 'short' }, /^WEBHOOK_SECRET_KEY: must be at least 32 characters \(value not shown: it is a secret\)$/],
    [{ WEBHOOK_CONCURRENCY: '0' }, /^WEBHOOK_CONCURRENCY: /],
  ])('stops on %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
    try {
      loadConfig({ ...base, ...env });
    } catch (err) {
      expect((err as Error).message).toMatch(message);
      expect((err as Error).message).not.toContain('\n');
    }
  });

  it('generates the local key secret once and keeps it beside the database', () => {
    const first = loadConfig(base).KEY_HASH_SECRET;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(base).KEY_HASH_SECRET).toBe(first);
    expect(readFileSync(join(dir, 'key-hash-secret'), 'utf8').trim()).toBe(first);
  });

  it('generates the local webhook secret key once, beside the database, apart from the key secret', () => {
    const first = loadConfig(base).WEBHOOK_SECRET_KEY;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig(base).WEBHOOK_SECRET_KEY).toBe(first);
    expect(readFileSync(join(dir, 'webhook-secret-key'), 'utf8').trim()).toBe(first);
    expect(first).not.toBe(loadConfig(base).KEY_HASH_SECRET);
    expect(
      loadConfig({ ...base, NODE_ENV: 'production', KEY_HASH_SECRET: 'x'.repeat(32), WEBHOOK_SECRET_KEY: 'w'.repeat(32) })
        .WEBHOOK_SECRET_KEY,
    ).toBe('w'.repeat(32));
  });

  it('gives webhooks their documented defaults', () => {
    expect(loadConfig(base)).toMatchObject({
      WEBHOOK_CONCURRENCY: 128,
      WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: 16,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_DISABLE_AFTER: 3 * 24 * 3600 * 1000,
      WEBHOOK_POLL_MS: 250,
    });
  });
});

describe('docker-compose.yml', () => {
  it('configures the services only with variables the config module knows', () => {
    const compose = parse(readFileSync(new URL('../../../docker-compose.yml', import.meta.url), 'utf8'), { merge: true });
    const known = new Set(Object.keys(EnvSchema.shape));
    for (const name of ['api', 'worker', 'migrate']) {
      const env = Object.keys(compose.services[name].environment);
      expect(
        env.filter((k) => !known.has(k)),
        name,
      ).toEqual([]);
      expect(env).toContain('KEY_HASH_SECRET');
      expect(env).toContain('WEBHOOK_SECRET_KEY');
      expect(env).toContain('OPENSEARCH_URL');
    }
  });
});
