// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../helpers/access.ts';
import { postMcp } from '../../../../helpers/mcp.ts';
import { mcpPostHead, type SlowRequest, slowRequest } from '../../../../helpers/slow-client.ts';

/**
 * A slow client cannot hold requests open for ever, checked against the real app on a real socket:
 * a key trickling bytes once held any number of requests open, none of them counted. Now the whole
 * request must arrive within REQUEST_TIMEOUT_MS (1 s here), its headers within HEADERS_TIMEOUT_MS,
 * /api/mcp takes its window slot before reading a body, and one client has at most
 * CLIENT_MAX_CONCURRENT requests in flight (3 here).
 */

let t: AccessTestApp;
let base: URL;
const open: SlowRequest[] = [];

/** Requests the per-minute window has answered, and who waits for a count. */
let answered = 0;
const waiters: { count: number; resolve: () => void }[] = [];

beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url, { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '600', CLIENT_MAX_CONCURRENT: '3' });
  const limiter = t.app.access.rateLimiter;
  const hit = limiter.hit.bind(limiter);
  limiter.hit = async (...args) => {
    const decision = await hit(...args);
    answered += 1;
    for (const w of waiters.filter((w) => answered >= w.count)) w.resolve();
    return decision;
  };
  base = new URL(await t.app.listen({ host: '127.0.0.1', port: 0 }));
});
afterAll(async () => {
  for (const r of open) r.destroy();
  await t.close();
});

const trickle = (head: string) => {
  const r = slowRequest(base, head);
  open.push(r);
  return r;
};
const probe = (key: string) => fetch(new URL('/api/v1/probe', base), { headers: bearer(key) });
const charges = async (clientId: string) =>
  (await t.runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM credit_ledger WHERE client_id = ? AND kind = 'charge'", [clientId]))!
    .n;
/**
 * Resolves once the window has answered `n` more requests: a request held open has then taken its
 * slot (MCP paces before reading a body) and counts among its client's requests in flight.
 */
const windowAnswers = (n: number) => new Promise<void>((resolve) => waiters.push({ count: answered + n, resolve }));

describe('a request held open by a trickling client', () => {
  it('an /api/mcp body trickled a byte at a time is cut off with 408 at the request timeout, its window slot already taken', async () => {
    const c = await t.client('developer');
    const admitted = windowAnswers(1);
    const slow = trickle(mcpPostHead(base, c.key, 60_000));
    await admitted;
    // The trickled request took the first of the minute's 60 slots before any body arrived; this is the second.
    const during = await probe(c.key);
    expect(during.status).toBe(200);
    expect(during.headers.get('x-ratelimit-remaining')).toBe('58');
    expect(await slow.answer).toBe(408);
    // A real-time bound, because the timeout is one: cut at REQUEST_TIMEOUT_MS (1 s), not before,
    // and long before the minute a trickle could otherwise last (3 s leaves room for a busy machine).
    const after = await slow.closed;
    expect(after).toBeGreaterThanOrEqual(900);
    expect(after).toBeLessThan(3_000);
    // Only the probe was charged: a body that never arrived is no tools/call.
    expect(await charges(c.client.id)).toBe(1);
  });

  it('headers trickled a byte at a time are cut off with 408 at the headers timeout, before any key is read', async () => {
    const slow = trickle(`GET /api/v1/probe HTTP/1.1\r\nHost: ${base.host}\r\nX-Slow: `);
    expect(await slow.answer).toBe(408);
    // Real time again: HEADERS_TIMEOUT_MS is 600 ms; 2 s is far from the minute of drip it cuts off.
    expect(await slow.closed).toBeLessThan(2_000);
  });
});

describe('requests in flight per client', () => {
  it('past the cap, REST and MCP answer 429 rate_limited with Retry-After: 1, uncounted; other clients are not affected; room returns as requests end', async () => {
    const c = await t.client('enterprise');
    const admitted = windowAnswers(3);
    const held = [0, 1, 2].map(() => trickle(mcpPostHead(base, c.key, 60_000)));
    await admitted;

    const rest = await probe(c.key);
    expect(rest.status).toBe(429);
    expect(rest.headers.get('retry-after')).toBe('1');
    expect(await rest.json()).toEqual({
      error: {
        code: 'rate_limited',
        message: 'Too many concurrent requests: at most 3 at once per client. Retry after 1 second.',
        request_id: expect.stringMatching(/^req_/),
        details: { reason: 'too_many_concurrent_requests', max_concurrent: 3 },
      },
    });

    const mcp = await postMcp(base.href, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer(c.key));
    expect(mcp.status).toBe(429);
    expect(mcp.headers.get('retry-after')).toBe('1');
    expect(await mcp.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32029,
        message: 'Too many concurrent requests: at most 3 at once per client. Retry after 1 second.',
        data: {
          code: 'rate_limited',
          request_id: expect.stringMatching(/^req_/),
          retry_after_seconds: 1,
          details: { reason: 'too_many_concurrent_requests', max_concurrent: 3 },
        },
      },
    });

    // Another client has its own count.
    expect((await probe((await t.client('enterprise')).key)).status).toBe(200);

    // The held requests time out (408) and their places come back.
    expect(await Promise.all(held.map((r) => r.answer))).toEqual([408, 408, 408]);
    await Promise.all(held.map((r) => r.closed));
    const again = await probe(c.key);
    expect(again.status).toBe(200);
    // The window counted the three held requests and the one that got through, not the two refusals.
    expect(again.headers.get('x-ratelimit-remaining')).toBe(String(10_000 - 4));
  });
});
