// @module-tag postgres
import { type ChildProcess, spawn } from 'node:child_process';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressNotAllowedError, guardedLookup } from '../../../../indexer/webhooks/guarded-lookup.ts';
import { createSender } from '../../../../indexer/webhooks/send.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents } from '../../../../services/control/feed/events.ts';
import { listDeliveries } from '../../../../services/control/feed/webhook-deliveries.ts';
import { createEndpoint } from '../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { ipv6Groups } from '../../../../services/domain/webhook-address.ts';
import { BIN, childEnv } from '../../../helpers/cli.ts';
import { type DnsServer, startDnsServer } from '../../../helpers/dns-server.ts';
import { EMBEDDED_IPV4_CASES } from '../../../helpers/embedded-ipv4.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';
import { until } from '../../../helpers/until.ts';

/**
 * In production no delivery reaches a private, loopback or link-local address (a customer's
 * URL must not reach our own network), judged on the address the socket connects to (after DNS,
 * so DNS rebinding cannot slip past), not on the URL's text.
 */

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const lookup = (policy: 'public_only' | 'public_and_loopback', host: string, all: boolean) =>
  new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>((resolve) =>
    guardedLookup(policy)(host, { all }, (err, address) => resolve({ err, address })),
  );

describe('the lookup of the delivery agents', () => {
  it('refuses a name that resolves to loopback under the production policy, and gives it outside production', async () => {
    for (const all of [false, true]) {
      const refused = await lookup('public_only', 'localhost', all);
      expect(refused.err).toBeInstanceOf(AddressNotAllowedError);
      expect(refused.err?.message).toMatch(/^address not allowed: localhost resolves to (127\.0\.0\.1|::1) \(loopback\)$/);
      const allowed = await lookup('public_and_loopback', 'localhost', all);
      expect(allowed.err).toBeNull();
      if (all) expect((allowed.address as LookupAddress[]).length).toBeGreaterThan(0);
      else expect(allowed.address).toMatch(/^(127\.0\.0\.1|::1)$/);
    }
  });
});

describe('a DNS answer that is an IPv6 form carrying a refused IPv4 address', () => {
  // One name per address, served by a real DNS server on loopback: the zone an attacker controls.
  const names = new Map<string, string>();
  let dns: DnsServer;
  beforeAll(async () => {
    for (const [i, a] of EMBEDDED_IPV4_CASES.flatMap((c) => [...c.refused.map(([x]) => x), ...c.allowed]).entries())
      names.set(a, `host${i}.attacker.test`);
    dns = await startDnsServer(Object.fromEntries([...names].map(([address, name]) => [name, [address]])));
  });
  afterAll(() => dns.close());

  const resolveVia = (policy: 'public_only' | 'public_and_loopback', host: string) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: string | LookupAddress[] }>((resolve) =>
      guardedLookup(policy, dns.resolve)(host, { all: true }, (err, address) => resolve({ err, address })),
    );

  for (const { range, refused, allowed } of EMBEDDED_IPV4_CASES)
    it(`${range}: refused at connect time, as the IPv4 host inside`, async () => {
      for (const [address, kind] of refused) {
        const name = names.get(address)!;
        const { err } = await resolveVia('public_only', name);
        expect(err, address).toBeInstanceOf(AddressNotAllowedError);
        // The resolver writes the address its own way (::ffff:127.0.0.1 for ::ffff:7f00:1): the same 128 bits.
        expect(ipv6Groups((err as AddressNotAllowedError).address)).toEqual(ipv6Groups(address));
        expect(err?.message).toBe(
          `address not allowed: ${name} resolves to ${(err as AddressNotAllowedError).address} (${kind.replace('_', '-')})`,
        );
      }
      for (const address of allowed) {
        const { err, address: given } = await resolveVia('public_only', names.get(address)!);
        expect(err, address).toBeNull();
        expect((given as LookupAddress[]).map((a) => ipv6Groups(a.address))).toEqual([ipv6Groups(address)]);
      }
    });

  it('a POST to a name answering the SIIT loopback address ::ffff:0:7f00:1 is refused before any byte is sent', async () => {
    const sender = createSender({ timeoutMs: 2000, policy: 'public_only', resolve: dns.resolve });
    try {
      const before = receiver.received.length;
      const name = names.get('::ffff:0:7f00:1')!;
      const result = await sender.send(`http://${name}:${receiver.port}/hooks`, '{}', { 'webhook-id': 'evt_1' });
      expect(result).toMatchObject({ httpStatus: null, responseBody: null });
      expect(result.error).toMatch(
        new RegExp(`^address not allowed: ${name.replace(/\./g, '\\.')} resolves to ::ffff:0:(7f00:1|127\\.0\\.0\\.1) \\(loopback\\)$`),
      );
      expect(receiver.received.length).toBe(before);
    } finally {
      sender.close();
    }
  });
});

describe('a POST under the production policy', () => {
  const sender = createSender({ timeoutMs: 2000, policy: 'public_only' });
  afterAll(() => sender.close());

  it.each([
    ['a name resolving to loopback', () => `http://localhost:${receiver.port}/hooks`, /^address not allowed: localhost resolves to/],
    ['a loopback literal', () => `http://127.0.0.1:${receiver.port}/hooks`, /^address not allowed: 127\.0\.0\.1 \(loopback\)$/],
    [
      'an IPv4-mapped loopback literal',
      () => `http://[::ffff:127.0.0.1]:${receiver.port}/hooks`,
      /^address not allowed: ::ffff:7f00:1 \(loopback\)$/,
    ],
    [
      'an IPv4-translated (SIIT) loopback literal',
      () => `http://[::ffff:0:7f00:1]:${receiver.port}/hooks`,
      /^address not allowed: ::ffff:0:7f00:1 \(loopback\)$/,
    ],
    [
      'the link-local metadata address',
      () => 'http://169.254.169.254/latest/meta-data',
      /^address not allowed: 169\.254\.169\.254 \(link-local\)$/,
    ],
  ])('to %s is refused before any byte is sent', async (_name, url, error) => {
    const before = receiver.received.length;
    const result = await sender.send(url(), '{}', { 'webhook-id': 'evt_1' });
    expect(result).toMatchObject({ httpStatus: null, responseBody: null });
    expect(result.error).toMatch(error);
    expect(receiver.received.length).toBe(before);
  });

  it('outside production the same loopback receiver is reached', async () => {
    const dev = createSender({ timeoutMs: 2000, policy: 'public_and_loopback' });
    try {
      const before = receiver.received.length;
      const result = await dev.send(`http://localhost:${receiver.port}/hooks`, '{}', { 'webhook-id': 'evt_1' });
      expect(result).toMatchObject({ httpStatus: 200, error: null, responseBody: 'ok' });
      expect(receiver.received.length).toBe(before + 1);
    } finally {
      dev.close();
    }
  });
});

describe('taxcert worker with NODE_ENV=production', () => {
  let t: TestRuntime;
  let child: ChildProcess | undefined;
  let stderr = '';

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await t.teardown();
  });

  it('records a refused attempt for an endpoint on loopback, the receiver hears nothing, and the logs hold no secret', async () => {
    const { config, runtime } = t;
    // Made outside production (where loopback URLs are accepted), then delivered by a production worker.
    const client = await createClient(runtime.sql, { name: 'prod', plan: 'enterprise' });
    const { endpoint, secret } = await createEndpoint(runtime.sql, createSecretBox(config.WEBHOOK_SECRET_KEY), {
      clientId: client.id,
      url: receiver.url,
      types: null,
      counties: null,
    });
    child = spawn(process.execPath, [BIN, 'worker', '--lock-ms', '2000'], {
      env: childEnv(config, {
        NODE_ENV: 'production',
        KEY_HASH_SECRET: config.KEY_HASH_SECRET,
        WEBHOOK_SECRET_KEY: config.WEBHOOK_SECRET_KEY,
        WEBHOOK_RETRY_SCHEDULE: '100ms',
        WEBHOOK_POLL_MS: '50',
        // Every log line, so a signing secret that reached the logger at any level would show.
        LOG_LEVEL: 'debug',
      }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const before = receiver.received.length;
    const [seq] = await appendEvents(runtime.sql, [
      { type: 'certificate.redeemed', countySlug: 'alachua', data: { object: { id: 'cert_x' }, previous: { status: 'sold' } } },
    ]);
    const rows = async () => (await listDeliveries(runtime.sql, endpoint.id, { limit: 10, offset: 0 })).rows;
    await until(
      async () => (await rows())[0]?.status === 'failed',
      `the delivery of evt_${seq} failed (worker stderr: ${stderr})`,
      120_000,
    );
    const [delivery] = await rows();
    expect(delivery!.attemptLog.map((a) => a.error)).toEqual([
      'address not allowed: 127.0.0.1 (loopback)',
      'address not allowed: 127.0.0.1 (loopback)',
    ]);
    expect(receiver.received.length).toBe(before);
    // The worker signed the request (then refused to send it) and logged at debug: never the secret.
    expect(stderr).toContain('worker waiting for jobs');
    expect(stderr).not.toContain(secret.slice(6, 30));
  }, 180_000);
});
