import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { inject } from 'vitest';
import { type Config, loadConfig } from '../../services/config.ts';
import { createTestDatabase, testDatabaseUrl } from './control.ts';

export interface TestContext {
  config: Config;
  /** Removes the temp folder holding this file's SQLite database, and drops its PostgreSQL one. */
  cleanupFiles(): void;
}

/**
 * Each test file gets its own index/queue prefix and SQLite file, so files run in
 * parallel against the same OpenSearch node and Redis without meeting. Under
 * TEST_DATABASE_URL it also gets a fresh PostgreSQL database as DATABASE_URL (the control
 * plane then lives there; DATABASE_PATH stays set for code that still reads it).
 * Call with import.meta.url.
 */
export function testContext(fileUrl: string, env: Record<string, string> = {}): TestContext {
  const name = basename(new URL(fileUrl).pathname)
    .replace(/\.test\.ts$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 24);
  const prefix = `t-${name}-${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const database = testDatabaseUrl() ? createTestDatabase(name) : undefined;
  const config = loadConfig({
    NODE_ENV: 'test',
    OPENSEARCH_URL: inject('opensearchUrl'),
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    DATABASE_PATH: join(dir, 'taxcert.db'),
    INDEX_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  return {
    config,
    cleanupFiles: () => {
      rmSync(dir, { recursive: true, force: true });
      database?.drop();
    },
  };
}
