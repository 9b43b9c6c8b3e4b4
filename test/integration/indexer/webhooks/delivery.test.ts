// @module-tag postgres
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookWorker, type WebhookWorkerHandle } from '../../../../indexer/webhooks/worker.ts';
import type { Config } from '../../../../services/config.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents, type EventInput, publicEventId } from '../../../../services/control/feed/events.ts';
import { listDeliveries, replay } from '../../../../services/control/feed/webhook-deliveries.ts';
import { dispatchCursor } from '../../../../services/control/feed/webhook-dispatch.ts';
import { createEndpoint, getEndpoint, type NewEndpoint } from '../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { type Answer, type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';
import { until } from '../../../helpers/until.ts';

/** A replay budget these tests never reach (webhook-fairness.test.ts tests the budget). */
const REPLAYS = { perMinute: 10_000 };

/**
 * Webhook delivery (signed, retried, never lost) end to end in one process: events appended to the
 * real events table, the real dispatcher and BullMQ worker on the real Redis, real HTTP receivers
 * on loopback. Each test makes its own endpoints, which receive only the events recorded after
 * them.
 */

let t: TestRuntime;
let worker: WebhookWorkerHandle | null = null;
const receivers: Receiver[] = [];

/** Short waits so retries happen within the test: 150, 300, 450 ms (+-10%). */
const FAST: Partial<Config> = { WEBHOOK_RETRY_SCHEDULE: [150, 300, 450], WEBHOOK_TIMEOUT_MS: 1000, WEBHOOK_POLL_MS: 25 };

async function runWorker(overrides: Partial<Config> = {}): Promise<void> {
  await worker?.close();
  worker = startWebhookWorker({ ...t.runtime, config: { ...t.runtime.config, ...FAST, ...overrides } }, { concurrency: 8 });
}

async function receiver(answer?: (n: number) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

/** An endpoint of its own client (a client may have 16). */
async function endpoint(input: Partial<NewEndpoint> & { url: string }) {
  const clientId = (await createClient(t.runtime.sql, { name: 'webhook tests', plan: 'growth' })).id;
  return await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
    clientId,
    types: null,
    counties: null,
    ...input,
  });
}

let serial = 0;
function event(type: EventInput['type'] = 'certificate.redeemed', countySlug: string | null = 'alachua'): EventInput {
  serial += 1;
  return {
    type,
    countySlug,
    data: {
      object: { id: `cert_${String(serial).padStart(20, '0')}`, county_slug: countySlug, status: 'redeemed' },
      previous: { status: 'sold' },
    },
  };
}

const append = async (...events: EventInput[]) => appendEvents(t.runtime.sql, events);
const deliveries = async (endpointId: string) => (await listDeliveries(t.runtime.sql, endpointId, { limit: 500, offset: 0 })).rows;
const settled = (endpointId: string, n: number) => async () => {
  const rows = await deliveries(endpointId);
  return rows.length === n && rows.every((d) => d.status !== 'pending');
};

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
  await runWorker();
});

afterAll(async () => {
  await worker?.close();
  for (const r of receivers) await r.close();
  await t.teardown();
});

describe('a delivery', () => {
  it('reaches a subscribed receiver once, signed so that the standardwebhooks library verifies it', async () => {
    const r = await receiver();
    const { endpoint: e, secret } = await endpoint({ url: r.url });
    const ids = await append(event(), event('certificate.tax_deed_applied', 'broward'), event('certificates.loaded', 'duval'));
    await until(settled(e.id, 3), 'three deliveries settled');

    expect(r.ids().sort()).toEqual(ids.map(publicEventId).sort());
    const verifier = new Webhook(secret);
    for (const request of r.received) {
      const headers = {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      };
      const payload = verifier.verify(request.body, headers) as {
        id: string;
        type: string;
        created_at: string;
        county_slug: string;
        data: { object: object; previous: object };
      };
      expect(payload.id).toBe(headers['webhook-id']);
      expect(request.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(payload.data).toEqual(
        expect.objectContaining({ previous: { status: 'sold' }, object: expect.objectContaining({ status: 'redeemed' }) }),
      );
      expect(Object.keys(payload)).toEqual(['id', 'type', 'created_at', 'county_slug', 'data']);
      // A body changed in transit no longer verifies.
      expect(() => verifier.verify(request.body.replace('sold', 'SOLD'), headers)).toThrow(/signature/i);
    }
    for (const d of await deliveries(e.id)) {
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, nextAttemptAt: null, lastError: null });
      expect(d.attemptLog).toEqual([expect.objectContaining({ attempt: 1, httpStatus: 200, error: null, responseBody: 'ok' })]);
    }
  });

  it('answered 500 and then 200 is retried after the schedule and delivered, both attempts kept', async () => {
    const r = await receiver((n) => (n === 0 ? { status: 500, body: 'database down' } : { status: 200, body: 'ok' }));
    const { endpoint: e } = await endpoint({ url: r.url });
    const [seq] = await append(event());
    await until(settled(e.id, 1), 'the delivery settled');

    expect(r.ids()).toEqual([publicEventId(seq!), publicEventId(seq!)]);
    // The same message both times: same id, and a receiver that saw it once can tell.
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
    const [d] = await deliveries(e.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    const [first, second] = d!.attemptLog;
    expect(first).toMatchObject({ attempt: 1, httpStatus: 500, responseBody: 'database down' });
    expect(second).toMatchObject({ attempt: 2, httpStatus: 200 });
    // The retry waited the schedule's first wait (150 ms less 10% jitter) after the failed attempt ended.
    expect(Date.parse(second!.startedAt) - (Date.parse(first!.startedAt) + first!.durationMs)).toBeGreaterThanOrEqual(135);
    expect((await getEndpoint(t.runtime.sql, e.id))?.failingSince).toBeNull();
  });

  it('that fails every attempt ends failed, listed with each attempt, and a replay delivers it', async () => {
    let up = false;
    const r = await receiver(() => (up ? { status: 200 } : { status: 503, body: 'x'.repeat(5000) }));
    const { endpoint: e } = await endpoint({ url: r.url });
    const [seq] = await append(event());
    await until(settled(e.id, 1), 'the delivery failed for good');

    const failed = await listDeliveries(t.runtime.sql, e.id, { status: 'failed', limit: 10, offset: 0 });
    expect(failed.total).toBe(1);
    expect(failed.rows[0]).toMatchObject({ eventId: seq, attempts: 4, lastError: 'HTTP 503', nextAttemptAt: null });
    expect(failed.rows[0]!.attemptLog.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    // Only the first 1 KB of an answer is kept.
    expect(failed.rows[0]!.attemptLog[0]!.responseBody).toHaveLength(1024);

    up = true;
    expect(await replay(t.runtime.sql, (await getEndpoint(t.runtime.sql, e.id))!, { eventId: seq! }, REPLAYS)).toBe(1);
    await until(async () => (await deliveries(e.id))[0]?.status === 'delivered', 'the replay delivered');
    const [d] = await deliveries(e.id);
    expect(d).toMatchObject({ generation: 1, attempts: 1 });
    expect(d!.attemptLog.map((a) => [a.generation, a.attempt, a.httpStatus])).toEqual([
      [0, 1, 503],
      [0, 2, 503],
      [0, 3, 503],
      [0, 4, 503],
      [1, 1, 200],
    ]);
    expect(r.ids().filter((id) => id === publicEventId(seq!))).toHaveLength(5);
  });

  it('answered 410 disables the endpoint at once; later events are not sent to it', async () => {
    const r = await receiver(() => ({ status: 410, body: 'gone' }));
    const { endpoint: e } = await endpoint({ url: r.url });
    const [first] = await append(event());
    await until(async () => (await getEndpoint(t.runtime.sql, e.id))?.status === 'disabled', 'the endpoint disabled');
    expect(await getEndpoint(t.runtime.sql, e.id)).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    expect(await deliveries(e.id)).toEqual([expect.objectContaining({ eventId: first, status: 'failed', attempts: 1 })]);

    const [later] = await append(event());
    await until(async () => (await dispatchCursor(t.runtime.sql)) >= later!, 'the dispatcher past the later event');
    expect((await deliveries(e.id)).map((d) => d.eventId)).toEqual([first]);
    expect(r.received).toHaveLength(1);
  });

  it('is not redirected: a 302 is a failed attempt and its Location is never called', async () => {
    const target = await receiver();
    const r = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const { endpoint: e } = await endpoint({ url: r.url });
    await append(event());
    await until(async () => ((await deliveries(e.id))[0]?.attempts ?? 0) >= 2, 'two attempts');
    expect((await deliveries(e.id))[0]!.attemptLog[0]).toMatchObject({ httpStatus: 302 });
    expect(target.received).toHaveLength(0);
  });

  it('answered after the timeout is a failed attempt (timeout) and is retried', async () => {
    const r = await receiver((n) => (n === 0 ? { status: 200, delayMs: 1500 } : { status: 200 }));
    const { endpoint: e } = await endpoint({ url: r.url });
    await append(event());
    await until(settled(e.id, 1), 'the delivery settled');
    const [d] = await deliveries(e.id);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(d!.attemptLog[0]).toMatchObject({ httpStatus: null, error: 'timeout: no complete answer within 1000 ms' });
    expect(d!.attemptLog[0]!.durationMs).toBeGreaterThanOrEqual(1000);
  });

  it('to a receiver that refuses connections is retried, then failed', async () => {
    const r = await receiver();
    await r.close();
    const { endpoint: e } = await endpoint({ url: r.url });
    await append(event());
    await until(settled(e.id, 1), 'the delivery failed for good');
    expect((await deliveries(e.id))[0]).toMatchObject({ status: 'failed', attempts: 4, lastError: 'connection refused' });
  });
});

describe('a slow receiver', () => {
  it('gets at most WEBHOOK_ENDPOINT_MAX_IN_FLIGHT requests at once, and does not hold up the other endpoints', async () => {
    // A timeout far above the answers' times: every slow answer must arrive, after 1.1 s or more.
    await runWorker({ WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: 2, WEBHOOK_TIMEOUT_MS: 10_000 });
    try {
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      // Every answer takes 1.1 s (a slow endpoint), and the first two wait for the test besides.
      const slow = await receiver((n) => ({ status: 200, delayMs: 1100, after: n < 2 ? released : undefined }));
      const fast = await receiver();
      const eSlow = (await endpoint({ url: slow.url })).endpoint;
      const eFast = (await endpoint({ url: fast.url })).endpoint;
      await append(...Array.from({ length: 8 }, () => event()));
      // The fast endpoint finishes while the slow one cannot have finished anything: its first
      // requests are held until after this, so no timing decides the order.
      await until(settled(eFast.id, 8), 'the fast endpoint done');
      expect(slow.received.length).toBeLessThanOrEqual(2);
      expect((await deliveries(eSlow.id)).filter((d) => d.status === 'delivered')).toEqual([]);
      release();
      await until(settled(eSlow.id, 8), 'the slow endpoint done', 60_000);
      expect(slow.maxOpen()).toBe(2);
      expect(slow.received).toHaveLength(8);
      expect((await deliveries(eSlow.id)).every((d) => d.attempts === 1)).toBe(true);
    } finally {
      await runWorker();
    }
  });
});

describe('subscriptions', () => {
  it('deliver exactly the events of the types and counties an endpoint asked for', async () => {
    const [all, redeemed, alachua, both] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const eAll = (await endpoint({ url: all!.url })).endpoint;
    const eRedeemed = (await endpoint({ url: redeemed!.url, types: ['certificate.redeemed'] })).endpoint;
    const eAlachua = (await endpoint({ url: alachua!.url, counties: ['alachua'] })).endpoint;
    const eBoth = (
      await endpoint({ url: both!.url, types: ['certificate.redeemed', 'certificate.cancelled'], counties: ['broward', 'duval'] })
    ).endpoint;
    const events = [
      event('certificate.redeemed', 'alachua'),
      event('certificate.redeemed', 'broward'),
      event('certificate.cancelled', 'duval'),
      event('certificate.updated', 'broward'),
      event('certificate.created', 'alachua'),
      event('county.coverage_changed', null),
    ];
    const ids = (await append(...events)).map(publicEventId);
    await until(async () => (await dispatchCursor(t.runtime.sql)) >= Number(ids.at(-1)!.slice(4)), 'the dispatcher past the events');
    const expected = {
      all: ids,
      redeemed: [ids[0], ids[1]],
      alachua: [ids[0], ids[4]],
      both: [ids[1], ids[2]],
    };
    for (const [e, n] of [
      [eAll, 6],
      [eRedeemed, 2],
      [eAlachua, 2],
      [eBoth, 2],
    ] as const)
      await until(settled(e.id, n), `${n} deliveries to ${e.id}`);
    expect(all!.ids().sort()).toEqual([...expected.all].sort());
    expect(redeemed!.ids().sort()).toEqual([...expected.redeemed].sort());
    expect(alachua!.ids().sort()).toEqual([...expected.alachua].sort());
    expect(both!.ids().sort()).toEqual([...expected.both].sort());
  });

  it('start with the events recorded after the endpoint is made', async () => {
    const [before] = await append(event());
    const r = await receiver();
    const { endpoint: e } = await endpoint({ url: r.url });
    const [after] = await append(event());
    await until(settled(e.id, 1), 'one delivery');
    expect(r.ids()).toEqual([publicEventId(after!)]);
    expect(before).toBeLessThan(after!);
  });

  it('stop while the client is on a plan without webhooks', async () => {
    const r = await receiver();
    const other = await createClient(t.runtime.sql, { name: 'downgraded', plan: 'growth' });
    const { endpoint: e } = await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
      clientId: other.id,
      url: r.url,
      types: null,
      counties: null,
    });
    await t.runtime.sql.run("UPDATE clients SET plan = 'developer' WHERE id = ?", [other.id]);
    const [seq] = await append(event());
    await until(async () => (await dispatchCursor(t.runtime.sql)) >= seq!, 'the dispatcher past the event');
    expect(await deliveries(e.id)).toEqual([]);
  });
});

describe('replay', () => {
  it('sends every event of a time range again, and only those the endpoint subscribes to', async () => {
    const r = await receiver();
    const { endpoint: e } = await endpoint({ url: r.url, counties: ['alachua'] });
    const times: string[] = [];
    const ids: number[] = [];
    for (const county of ['alachua', 'alachua', 'broward', 'alachua', 'alachua']) {
      ids.push(...(await append(event('certificate.redeemed', county))));
      times.push(
        Object.values((await t.runtime.sql.get<Record<string, string>>('SELECT created_at FROM events WHERE id = ?', [ids.at(-1)]))!)[0]!,
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await until(settled(e.id, 4), 'four first deliveries');
    // [second event, fourth event]: the second, the broward one (not subscribed) and the fourth.
    const to = new Date(Date.parse(times[3]!) + 1).toISOString();
    expect(await replay(t.runtime.sql, (await getEndpoint(t.runtime.sql, e.id))!, { from: times[1]!, to }, REPLAYS)).toBe(2);
    await until(async () => r.received.length === 6 && (await settled(e.id, 4)()), 'the replays delivered');
    const replayed = r.ids().slice(4).sort();
    expect(replayed).toEqual([publicEventId(ids[1]!), publicEventId(ids[3]!)].sort());
  });

  it('of a delivery still pending does nothing (never two deliveries at once)', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const { endpoint: e } = await endpoint({ url: r.url });
    const [seq] = await append(event());
    await until(async () => (await deliveries(e.id)).length === 1, 'the delivery written');
    expect(await replay(t.runtime.sql, (await getEndpoint(t.runtime.sql, e.id))!, { eventId: seq! }, REPLAYS)).toBe(0);
  });
});

describe('an endpoint failing every attempt', () => {
  it('is disabled once its failures have lasted WEBHOOK_DISABLE_AFTER', async () => {
    await runWorker({ WEBHOOK_DISABLE_AFTER: 600, WEBHOOK_RETRY_SCHEDULE: [300, 300, 300, 300] });
    try {
      const r = await receiver(() => ({ status: 500 }));
      const { endpoint: e } = await endpoint({ url: r.url });
      await append(event());
      await until(async () => (await getEndpoint(t.runtime.sql, e.id))?.status === 'disabled', 'the endpoint disabled');
      const disabled = (await getEndpoint(t.runtime.sql, e.id))!;
      expect(disabled).toMatchObject({ disabledReason: 'failing' });
      const log = (await deliveries(e.id))[0]!.attemptLog;
      // Disabled by the first failure at least 600 ms after the first one, not before.
      expect(Date.parse(log.at(-1)!.startedAt) - Date.parse(log[0]!.startedAt)).toBeGreaterThanOrEqual(600);
      expect(Date.parse(log.at(-2)!.startedAt) - Date.parse(log[0]!.startedAt)).toBeLessThan(600);
    } finally {
      await runWorker();
    }
  });
});
