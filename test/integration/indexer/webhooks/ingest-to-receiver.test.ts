// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookWorker, type WebhookWorkerHandle } from '../../../../indexer/webhooks/worker.ts';
import { readCertificate } from '../../../../services/api/routes/certificates/read.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import type { Config } from '../../../../services/config.ts';
import { createClient } from '../../../../services/control/billing/clients.ts';
import { appendEvents, publicEventId } from '../../../../services/control/feed/events.ts';
import { listDeliveries } from '../../../../services/control/feed/webhook-deliveries.ts';
import { dispatchCursor } from '../../../../services/control/feed/webhook-dispatch.ts';
import { createEndpoint } from '../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../services/control/feed/webhook-secrets.ts';
import { alachuaCertificates, alachuaJob, eventsSince, lastEventSeq, writeAlachuaFile } from '../../../helpers/event-files.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';
import { until } from '../../../helpers/until.ts';

/**
 * The whole path from an ingest to a signed POST: a county file that flips 100 certificates to
 * redeemed, ingested through the real queue and worker, records 100 certificate.redeemed events,
 * and each reaches the subscribed receiver once, signed, verified by the standardwebhooks library;
 * the same file again records and sends nothing, and a receiver subscribed to another county or
 * type receives none of them.
 */

const N = 120;
const FLIPPED = 100;
const FAST: Partial<Config> = { WEBHOOK_RETRY_SCHEDULE: [150, 300, 450], WEBHOOK_TIMEOUT_MS: 2000, WEBHOOK_POLL_MS: 25 };

describe('from a county file to a verified webhook', () => {
  let t: TestRuntime;
  let dir: string;
  let worker: WebhookWorkerHandle;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-ingest-hook-'));
    worker = startWebhookWorker({ ...t.runtime, config: { ...t.runtime.config, ...FAST } }, { concurrency: 8 });
  });
  afterAll(async () => {
    await worker?.close();
    for (const r of receivers) await r.close();
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  const ingest = async (file: string) => {
    const [outcome] = await enqueueFiles(t.runtime, [alachuaJob(file)], { wait: true });
    expect(outcome?.status, outcome?.error).toBe('succeeded');
  };

  it(`${FLIPPED} redemptions in a file reach the subscribed receiver once each, signed; the same file again sends nothing`, async () => {
    await ingest(await writeAlachuaFile(dir, 'first.csv', alachuaCertificates(N)));

    const subscribed = await startReceiver();
    const otherCounty = await startReceiver();
    const otherType = await startReceiver();
    receivers.push(subscribed, otherCounty, otherType);
    const clientId = (await createClient(t.runtime.sql, { name: 'ingest hook tests', plan: 'growth' })).id;
    const box = createSecretBox(t.config.WEBHOOK_SECRET_KEY);
    const { endpoint, secret } = await createEndpoint(t.runtime.sql, box, {
      clientId,
      url: subscribed.url,
      types: ['certificate.redeemed'],
      counties: ['alachua'],
    });
    const otherCountyEndpoint = (
      await createEndpoint(t.runtime.sql, box, { clientId, url: otherCounty.url, types: null, counties: ['broward'] })
    ).endpoint;
    const otherTypeEndpoint = (
      await createEndpoint(t.runtime.sql, box, { clientId, url: otherType.url, types: ['certificate.cancelled'], counties: null })
    ).endpoint;

    const before = await lastEventSeq(t.runtime.sql);
    const redeeming = await writeAlachuaFile(dir, 'redeemed.csv', alachuaCertificates(N, FLIPPED));
    await ingest(redeeming);
    const recorded = await eventsSince(t.runtime.sql, before);
    expect(recorded).toHaveLength(FLIPPED);
    expect(new Set(recorded.map((e) => e.type))).toEqual(new Set(['certificate.redeemed']));

    const settled = async () => {
      const rows = (await listDeliveries(t.runtime.sql, endpoint.id, { limit: 500, offset: 0 })).rows;
      return rows.length === FLIPPED && rows.every((d) => d.status === 'delivered');
    };
    await until(settled, 'every redemption delivered');

    // Once each, exactly the recorded ids.
    expect(subscribed.ids().sort()).toEqual(recorded.map((e) => publicEventId(e.seq)).sort());
    const verifier = new Webhook(secret);
    for (const request of subscribed.received) {
      const payload = verifier.verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }) as { id: string; type: string; data: { object: { id: string; status: string }; previous: { status: string } } };
      expect(payload.type).toBe('certificate.redeemed');
      expect(payload.data.previous.status).toBe('sold');
      expect(payload.data.object.status).toBe('redeemed');
    }
    // The object is the row the API answers for the same id.
    const sample = JSON.parse(subscribed.received[0]!.body) as { data: { object: { id: string } } };
    expect(sample.data.object).toEqual((await readCertificate(t.runtime, { id: sample.data.object.id })).data);

    // The same file again: no event, so nothing more is sent.
    const afterSecond = await lastEventSeq(t.runtime.sql);
    await ingest(redeeming);
    expect(await eventsSince(t.runtime.sql, afterSecond)).toEqual([]);
    // Silence, shown against a barrier rather than a wait: an event recorded after the second
    // ingest, for no endpoint's subscription. Once the dispatcher is past it, every delivery the
    // second ingest could have caused exists; none does, and nothing more arrived.
    const [barrier] = await appendEvents(t.runtime.sql, [
      { type: 'certificate.created', countySlug: 'duval', data: { object: { id: 'cert_barrier' }, previous: {} } },
    ]);
    await until(async () => (await dispatchCursor(t.runtime.sql)) >= barrier!, 'the dispatcher past the later event');
    for (const e of [endpoint, otherCountyEndpoint, otherTypeEndpoint])
      expect((await listDeliveries(t.runtime.sql, e.id, { limit: 500, offset: 0 })).rows).toHaveLength(e === endpoint ? FLIPPED : 0);
    expect(subscribed.received).toHaveLength(FLIPPED);
    expect(otherCounty.received).toEqual([]);
    expect(otherType.received).toEqual([]);
  });
});
