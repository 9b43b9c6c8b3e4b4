// @module-tag postgres
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnection } from '../../../../indexer/queue.ts';
import { createWebhookQueue, deliveryJobId } from '../../../../indexer/webhooks/queue.ts';
import { startWebhookWorker } from '../../../../indexer/webhooks/worker.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents, type EventInput, publicEventId } from '../../../../services/control/feed/events.ts';
import { fanOut, listDeliveries, outbox } from '../../../../services/control/feed/webhook-deliveries.ts';
import { createEndpoint } from '../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { BIN, childEnv } from '../../../helpers/cli.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';
import { until } from '../../../helpers/until.ts';

/**
 * A worker killed with SIGKILL in the middle of deliveries loses none of them. The receiver holds
 * its answers, so the kill lands while requests are in flight; the next worker takes the jobs over
 * once the dead one's locks expire and every event arrives.
 */

const EVENTS = 40;
let t: TestRuntime;
let child: ChildProcess | undefined;
const receivers: Receiver[] = [];

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url, { WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms', WEBHOOK_POLL_MS: '50' });
});
afterAll(async () => {
  child?.kill('SIGKILL');
  for (const r of receivers) await r.close();
  await t.teardown();
});

async function makeEndpoint(url: string) {
  const client = await createClient(t.runtime.sql, { name: 'kill test', plan: 'lead_feed' });
  return (
    await createEndpoint(t.runtime.sql, createSecretBox(t.config.WEBHOOK_SECRET_KEY), {
      clientId: client.id,
      url,
      types: null,
      counties: null,
    })
  ).endpoint;
}

const events = (n: number): EventInput[] =>
  Array.from({ length: n }, (_, i) => ({
    type: 'certificate.redeemed',
    countySlug: 'broward',
    data: { object: { id: `cert_${i}` }, previous: { status: 'sold' } },
  }));

describe('a webhook worker killed mid-delivery', () => {
  it('loses nothing: every event reaches the receiver after the next worker takes over', async () => {
    let holding = true;
    const r = await startReceiver(() => (holding ? { status: 200, delayMs: 60_000 } : { status: 200 }));
    receivers.push(r);
    const endpoint = await makeEndpoint(r.url);
    const ids = (await appendEvents(t.runtime.sql, events(EVENTS))).map(publicEventId);

    child = spawn(process.execPath, [BIN, 'worker', '--lock-ms', '2000', '--webhook-concurrency', '8'], {
      env: childEnv(t.config, { WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms', WEBHOOK_POLL_MS: '50' }),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    // Eight requests in flight, none answered: kill now.
    await until(() => r.received.length >= 8, 'eight deliveries in flight', 120_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    const inFlight = r.ids();
    const rows = async () => (await listDeliveries(t.runtime.sql, endpoint.id, { limit: 100, offset: 0 })).rows;
    expect((await rows()).filter((d) => d.status === 'delivered')).toEqual([]);
    expect(await rows()).toHaveLength(EVENTS);

    holding = false;
    const rescuer = startWebhookWorker(t.runtime, { concurrency: 8, lockDuration: 2000, stalledInterval: 1000 });
    try {
      await until(async () => (await rows()).every((d) => d.status === 'delivered'), 'every delivery delivered', 120_000);
    } finally {
      await rescuer.close();
    }
    // At least once: each event arrived; those in flight at the kill arrived again.
    expect(new Set(r.ids())).toEqual(new Set(ids));
    for (const id of inFlight) expect(r.ids().filter((x) => x === id).length).toBeGreaterThanOrEqual(2);
    for (const d of await rows()) expect(d.attemptLog.at(-1)).toMatchObject({ httpStatus: 200 });
  }, 300_000);

  it('that died between queuing jobs and marking them queued sends each delivery once', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const endpoint = await makeEndpoint(r.url);
    const ids = (await appendEvents(t.runtime.sql, events(10))).map(publicEventId);
    // What the dispatcher does, stopped half-way: rows written, jobs added, rows not marked.
    await fanOut(t.runtime.sql, 1000);
    const pending = (await outbox(t.runtime.sql, 1000)).filter((row) => row.endpointId === endpoint.id);
    expect(pending).toHaveLength(10);
    const connection = redisConnection(t.config);
    const queue = createWebhookQueue(t.config, connection);
    await queue.addBulk(
      pending.map((row) => ({
        name: 'deliver',
        data: { delivery: row.id, generation: row.generation },
        opts: { jobId: deliveryJobId(row) },
      })),
    );
    await queue.close();
    connection.disconnect();

    // The next worker drains the same outbox rows again: the same job ids, so no second job.
    const worker = startWebhookWorker(t.runtime, { concurrency: 4 });
    const rows = async () => (await listDeliveries(t.runtime.sql, endpoint.id, { limit: 100, offset: 0 })).rows;
    try {
      await until(
        async () => (await rows()).every((d) => d.status === 'delivered') && (await outbox(t.runtime.sql, 1)).length === 0,
        'every delivery delivered',
      );
    } finally {
      await worker.close();
    }
    expect(r.ids().sort()).toEqual([...ids].sort());
    for (const d of await rows()) expect(d.attempts).toBe(1);
  });
});
