// @module-tag postgres
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, matchesGlob } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestControl } from '../../../helpers/control.ts';
import { demoKeyFile, ensureDemoKey } from '../../../../services/control/billing/demo-key.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';
import { runCli } from '../../../helpers/cli.ts';
import { freePort } from '../../../helpers/ports.ts';

// Secrets stay secret: a config error once echoed the bad value of KEY_HASH_SECRET or of a
// REDIS_URL with its password; the Redis check printed REDIS_URL whole; a demo key file that
// already existed kept whatever mode it had.

const dir = mkdtempSync(join(tmpdir(), 'taxcert-secrets-'));
afterAll(async () => rmSync(dir, { recursive: true, force: true }));

const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  OPENSEARCH_URL: 'http://127.0.0.1:9200',
  DATABASE_PATH: join(dir, 'cli', 'taxcert.db'),
  ...extra,
});

describe('what taxcert prints about a secret-bearing variable', () => {
  it.each([
    [
      'a short KEY_HASH_SECRET',
      { KEY_HASH_SECRET: 'hunter2-is-short' },
      /^taxcert: KEY_HASH_SECRET: must be at least 32 characters \(value not shown/,
    ],
    [
      'a REDIS_URL with a password that is no URL',
      { REDIS_URL: 'redis://:hunter2@127.0.0.1:notaport' },
      /^taxcert: REDIS_URL: .*\(value not shown/,
    ],
    [
      'a DATABASE_URL-like value in a URL variable',
      { OPENSEARCH_URL: 'postgres://app:hunter2@db/taxcert' },
      /^taxcert: OPENSEARCH_URL: .*\(value not shown/,
    ],
  ])('%s: named, never shown', async (_name, extra, message) => {
    for (const args of [['status'], ['--json', 'clients', 'set', 'cli_x', '--plan', 'pro']]) {
      const r = await runCli(args, env(extra));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stdout + r.stderr).not.toContain('hunter2');
    }
  });

  it('a Redis that does not answer is named without its password', async () => {
    const port = await freePort();
    const r = await runCli(['status'], env({ REDIS_URL: `redis://:hunter2@127.0.0.1:${port}` }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Redis does not answer at redis://:redacted@127.0.0.1:${port}`);
    expect(r.stderr).not.toContain('hunter2');
  });
});

describe('the demo key file', () => {
  it('is 0600 when made, and is closed again when it already exists with a wider mode', async () => {
    const config = { DATABASE_PATH: join(dir, 'demo', 'taxcert.db'), KEY_PREFIX: 'txc', KEY_HASH_SECRET: 'k'.repeat(32) };
    const sql = await openTestControl({ path: config.DATABASE_PATH, registry: loadRegistry(), indexPrefix: 'demo', label: 'secrets' });
    try {
      const first = await ensureDemoKey(sql, config);
      const file = demoKeyFile(config.DATABASE_PATH);
      expect(statSync(file).mode & 0o777).toBe(0o600);

      // Left world-readable (an older start, a cp, an unpacked archive): the key stays, the mode does not.
      chmodSync(file, 0o644);
      const again = await ensureDemoKey(sql, config);
      expect(again).toEqual({ key: first.key, created: false });
      expect(statSync(file).mode & 0o777).toBe(0o600);

      // A key that no longer works is replaced in place; the new one is never readable by others.
      await sql.run("UPDATE api_keys SET revoked_at = '2026-01-01T00:00:00Z' WHERE client_id = 'cli_demo'");
      chmodSync(file, 0o666);
      const replaced = await ensureDemoKey(sql, config);
      expect(replaced.created).toBe(true);
      expect(readFileSync(file, 'utf8').trim()).toBe(replaced.key);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await sql.close();
    }
  });
});

describe('the Docker build context', () => {
  // No Docker engine here: the patterns are matched as Docker matches them (** any depth), and
  // every secret a developer's checkout can hold must be excluded from `COPY . .`.
  it('leaves out .env files at any depth and the local stack files', async () => {
    const patterns = readFileSync(new URL('../../../../.dockerignore', import.meta.url), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    const ignored = (path: string) => patterns.some((p) => matchesGlob(path, p));
    for (const path of [
      '.env',
      '.env.local',
      'services/.env',
      'deploy/.env.production',
      'data/stack.json',
      'key-hash-secret',
      'old/demo-api-key',
      'taxcert.db',
      'old/demo-password',
      'old/outbox/2026-05-01.eml',
    ])
      expect(ignored(path), path).toBe(true);
    for (const path of ['package.json', 'services/config.ts', 'bin/taxcert.js', 'mappings/certificates.json'])
      expect(ignored(path), path).toBe(false);
  });
});
