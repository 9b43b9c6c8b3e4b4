// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookWorker, type WebhookWorkerHandle } from '../../../../indexer/webhooks/worker.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents, type EventInput, publicEventId } from '../../../../services/control/feed/events.ts';
import { listDeliveries, replay } from '../../../../services/control/feed/webhook-deliveries.ts';
import { createEndpoint, MAX_ENDPOINTS_PER_CLIENT, type WebhookEndpoint } from '../../../../services/control/feed/webhook-endpoints.ts';
import { ReplayLimitError } from '../../../../services/control/feed/webhook-replay-budget.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { type HungReceiver, type Receiver, startHungReceiver, startReceiver } from '../../../helpers/webhook-receiver.ts';
import { until } from '../../../helpers/until.ts';

/**
 * One client cannot take the worker's delivery slots from the others. The real dispatcher and
 * BullMQ worker (128 slots, the default) on the real Redis, real HTTP receivers on loopback: a
 * client with all 16 of its endpoints on a receiver that never answers, and 192 replays queued
 * (12 old events to each endpoint), holds WEBHOOK_CLIENT_MAX_IN_FLIGHT (16) requests and no
 * more, and another client's deliveries arrive while those 16 are all still open, each within
 * the second the contract allows (on this machine they take about a tenth of that). Before the
 * client's share the hung client held all 128 slots for the whole 10 s timeout, and the other
 * client waited that long. Then the replay budget: past WEBHOOK_REPLAYS_PER_MINUTE a replay is
 * refused, changes nothing, and says when the next one is possible.
 */

let t: TestRuntime;
let worker: WebhookWorkerHandle | null = null;
let hung: HungReceiver;
let healthy: Receiver;

const event = (type: EventInput['type'], n: number): EventInput => ({
  type,
  countySlug: 'alachua',
  data: { object: { id: `cert_${n}` }, previous: { status: 'sold' } },
});

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
  hung = await startHungReceiver();
  healthy = await startReceiver();
});
afterAll(async () => {
  // The hung requests end when their connections go, so the worker's close does not wait out the timeout.
  await hung?.close();
  await worker?.close();
  await healthy?.close();
  await t.teardown();
});

describe("a client whose every endpoint hangs, and another client's deliveries", () => {
  it('holds the hung client to its share of the slots, and the other client is delivered while that share is still held', async () => {
    const { sql } = t.runtime;
    const box = createSecretBox(t.config.WEBHOOK_SECRET_KEY);
    // Old events, recorded before the hung client's endpoints: only replays send them.
    const old = await appendEvents(
      sql,
      Array.from({ length: 12 }, (_, n) => event('certificate.redeemed', n)),
    );
    const hungClient = await createClient(sql, { name: 'hung', plan: 'growth' });
    const endpoints: WebhookEndpoint[] = [];
    for (let i = 0; i < MAX_ENDPOINTS_PER_CLIENT; i++)
      endpoints.push(
        (
          await createEndpoint(sql, box, {
            clientId: hungClient.id,
            url: hung.url(`/hook/${i}`),
            types: ['certificate.redeemed'],
            counties: null,
          })
        ).endpoint,
      );
    const otherClient = await createClient(sql, { name: 'other', plan: 'growth' });
    const other = (
      await createEndpoint(sql, box, { clientId: otherClient.id, url: healthy.url, types: ['certificate.created'], counties: null })
    ).endpoint;

    // 192 replays (this test's own budget, so the share is what holds here, not the replay limit),
    // all queued before the worker starts: its first hung requests then time out 10 s after it
    // starts, however long the replays took to write.
    let queued = 0;
    for (const endpoint of endpoints) for (const id of old) queued += await replay(sql, endpoint, { eventId: id }, { perMinute: 1000 });
    expect(queued).toBe(192);

    // The worker as production runs it: 128 slots, a 10 s timeout, the default shares.
    const config = { ...t.runtime.config, WEBHOOK_POLL_MS: 25 };
    expect([config.WEBHOOK_TIMEOUT_MS, config.WEBHOOK_CLIENT_MAX_IN_FLIGHT, config.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT]).toEqual([
      10_000, 16, 16,
    ]);
    worker = startWebhookWorker({ ...t.runtime, config }, { concurrency: 128 });
    await until(() => hung.open() >= config.WEBHOOK_CLIENT_MAX_IN_FLIGHT, 'the hung client holding its share of requests');

    for (let n = 0; n < 3; n++) {
      const started = Date.now();
      const [seq] = await appendEvents(sql, [event('certificate.created', 100 + n)]);
      await until(() => healthy.ids().includes(publicEventId(seq!)), `the other client's evt_${seq}`, 30_000, 10);
      const delay = healthy.received.find((r) => r.headers['webhook-id'] === publicEventId(seq!))!.at - started;
      // Delivered while every request the hung client opened is still open: no slot was freed by
      // its timeout; the other client had slots of its own all along.
      expect(hung.requests()).toBe(config.WEBHOOK_CLIENT_MAX_IN_FLIGHT);
      expect(hung.open()).toBe(config.WEBHOOK_CLIENT_MAX_IN_FLIGHT);
      // A real-time bound, because the contract is one (a second; about a tenth of it here). The
      // two counts above are what show no slot of the hung client's came free for it.
      expect(delay, `the other client's delivery ${n + 1} took ${delay} ms`).toBeLessThan(1000);
    }
    // The hung client never had more than its share open, across all 16 endpoints.
    expect(hung.maxOpen()).toBe(config.WEBHOOK_CLIENT_MAX_IN_FLIGHT);
    // The outcomes are written in batches just after the answers.
    const statuses = async () => (await listDeliveries(sql, other.id, { limit: 10, offset: 0 })).rows.map((d) => d.status).join(',');
    await until(
      async () => (await statuses()) === 'delivered,delivered,delivered',
      "the other client's three deliveries recorded as delivered",
    );
  }, 60_000);
});

describe('the replay budget', () => {
  it('takes WEBHOOK_REPLAYS_PER_MINUTE replays at once, refuses the next with when it is possible, changes nothing when refusing, and refills', async () => {
    const { sql } = t.runtime;
    const box = createSecretBox(t.config.WEBHOOK_SECRET_KEY);
    const [seq] = await appendEvents(sql, [event('certificate.redeemed', 500)]);
    const mine = await createClient(sql, { name: 'replayer', plan: 'growth' });
    const theirs = await createClient(sql, { name: 'bystander', plan: 'growth' });
    const a = (await createEndpoint(sql, box, { clientId: mine.id, url: 'https://a.example.com/x', types: null, counties: null })).endpoint;
    const b = (await createEndpoint(sql, box, { clientId: mine.id, url: 'https://b.example.com/x', types: null, counties: null })).endpoint;
    const c = (await createEndpoint(sql, box, { clientId: theirs.id, url: 'https://c.example.com/x', types: null, counties: null }))
      .endpoint;
    const now = new Date('2030-06-01T12:00:00.000Z');
    const budget = { perMinute: 3, now };

    // Three at once, across the client's endpoints (the budget is the client's, not an endpoint's).
    expect(await replay(sql, a, { eventId: seq! }, budget)).toBe(1);
    expect(await replay(sql, b, { eventId: seq! }, budget)).toBe(1);
    expect(await replay(sql, a, { eventId: seq! }, budget)).toBe(0); // already pending: spent all the same
    const before = (await listDeliveries(sql, b.id, { limit: 10, offset: 0 })).rows;
    const refused = await replay(sql, b, { from: '2000-01-01T00:00:00.000Z', to: '2100-01-01T00:00:00.000Z' }, budget).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ReplayLimitError);
    // One replay comes back every 20 s at three a minute.
    expect(refused).toMatchObject({ code: 'replay_limit', perMinute: 3, retryAfterMs: 20_000 });
    expect((refused as Error).message).toBe('at most 3 replays a minute; the next one is possible in 20 s');
    expect((await listDeliveries(sql, b.id, { limit: 10, offset: 0 })).rows).toEqual(before);
    // Another client's budget is its own.
    expect(await replay(sql, c, { eventId: seq! }, budget)).toBe(1);
    // 20 s later one more; 60 s later the whole bucket again.
    expect(await replay(sql, a, { eventId: seq! }, { perMinute: 3, now: new Date(now.getTime() + 20_000) })).toBe(0);
    await expect(replay(sql, a, { eventId: seq! }, { perMinute: 3, now: new Date(now.getTime() + 20_000) })).rejects.toBeInstanceOf(
      ReplayLimitError,
    );
    const later = new Date(now.getTime() + 80_000);
    for (let i = 0; i < 3; i++) await replay(sql, a, { eventId: seq! }, { perMinute: 3, now: later });
    await expect(replay(sql, a, { eventId: seq! }, { perMinute: 3, now: later })).rejects.toBeInstanceOf(ReplayLimitError);
  });
});
