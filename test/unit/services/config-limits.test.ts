import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../services/config.ts';

/**
 * The limits that keep one key from holding requests open or costing seconds of CPU (timeouts,
 * requests in flight, MCP body size), and the MCP Origin allowlist: defaults, and how
 * MCP_ALLOWED_ORIGINS is read.
 */
const dir = mkdtempSync(join(tmpdir(), 'taxcert-config-limits-'));
const base = { NODE_ENV: 'test', DATABASE_PATH: join(dir, 'taxcert.db'), KEY_HASH_SECRET: 'x'.repeat(32) };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('request limits', () => {
  it('defaults: 30 s per request, 10 s for headers, 60 s idle, 16 in flight per client (2 of them analytic), 64 KiB MCP bodies, no browser origins', () => {
    expect(loadConfig(base)).toMatchObject({
      REQUEST_TIMEOUT_MS: 30_000,
      HEADERS_TIMEOUT_MS: 10_000,
      CONNECTION_TIMEOUT_MS: 60_000,
      CLIENT_MAX_CONCURRENT: 16,
      CLIENT_MAX_ANALYTICS: 2,
      MCP_MAX_BODY_BYTES: 65_536,
      MCP_ALLOWED_ORIGINS: [],
    });
  });

  it('reads a comma-separated origin list as browsers serialize origins', () => {
    const c = loadConfig({ ...base, MCP_ALLOWED_ORIGINS: ' https://App.Example.com , http://localhost:5173,https://x.example:443 ' });
    expect(c.MCP_ALLOWED_ORIGINS).toEqual(['https://app.example.com', 'http://localhost:5173', 'https://x.example']);
  });

  it.each(['https://app.example.com/', 'https://app.example.com/mcp', 'app.example.com', 'ftp://app.example.com', '*'])(
    'refuses %s as an origin',
    (value) => {
      expect(() => loadConfig({ ...base, MCP_ALLOWED_ORIGINS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, MCP_ALLOWED_ORIGINS: value })).toThrow(
        /^MCP_ALLOWED_ORIGINS: must be a comma-separated list of origins/,
      );
    },
  );

  it('refuses a timeout of 0, which would turn the limit off', () => {
    expect(() => loadConfig({ ...base, REQUEST_TIMEOUT_MS: '0' })).toThrow(/^REQUEST_TIMEOUT_MS:/);
  });
});

describe('the per-minute window', () => {
  it('is a minute, and only a test may shorten it', () => {
    expect(loadConfig(base).RATE_LIMIT_WINDOW_MS).toBe(60_000);
    expect(loadConfig({ ...base, RATE_LIMIT_WINDOW_MS: '3000' }).RATE_LIMIT_WINDOW_MS).toBe(3000);
    for (const NODE_ENV of ['development', 'production'])
      expect(() => loadConfig({ ...base, NODE_ENV, RATE_LIMIT_WINDOW_MS: '3000' })).toThrow(/^RATE_LIMIT_WINDOW_MS: .*for tests only/);
    expect(() => loadConfig({ ...base, RATE_LIMIT_WINDOW_MS: '120000' })).toThrow(/^RATE_LIMIT_WINDOW_MS:/);
  });
});
