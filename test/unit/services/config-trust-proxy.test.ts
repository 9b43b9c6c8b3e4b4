import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../services/config.ts';

/** TRUST_PROXY: which proxies' X-Forwarded-For names the client (request.ip). */
const dir = mkdtempSync(join(tmpdir(), 'taxcert-config-proxy-'));
const base = { NODE_ENV: 'test', DATABASE_PATH: join(dir, 'taxcert.db'), KEY_HASH_SECRET: 'x'.repeat(32) };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default', () => {
    expect(loadConfig(base).TRUST_PROXY).toEqual([]);
  });

  it('reads a comma-separated list of addresses and CIDR ranges, IPv4 and IPv6', () => {
    expect(loadConfig({ ...base, TRUST_PROXY: ' 10.0.0.0/8 , 192.0.2.7,2001:db8::/32, ::1 ' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
      '::1',
    ]);
  });

  it.each(['10.0.0.0/33', '2001:db8::/129', 'loadbalancer.internal', '10.0.0.0/8/1', '10.0.0/8', '*', 'true', '10.0.0.0/x'])(
    'refuses %s',
    (value) => {
      expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, TRUST_PROXY: value })).toThrow(
        /^TRUST_PROXY: must be a comma-separated list of addresses or CIDR ranges/,
      );
    },
  );
});
