// @module-tag postgres
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDeliveries } from '../../../../services/control/feed/webhook-deliveries.ts';
import { PRIVATE_EVENT_TYPES } from '../../../../services/domain/event-types.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import type { AccessTestApp } from '../../../helpers/access.ts';
import { type AlertClients, type Method, openAlertClients } from '../../../helpers/alert-clients.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';
import { until } from '../../../helpers/until.ts';
import { type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';

/**
 * Saved searches that alert, end to end through the API alone: two clients save searches and a
 * webhook endpoint over REST, county files go through the real queue and worker, and each client
 * hears exactly the matches its own searches gained, kept or lost, in its feed and signed at its
 * endpoint (verified with the standardwebhooks library), and nothing of the other's.
 */

const N = 60;

interface FeedEvent {
  id: string;
  type: string;
  data: { saved_search?: { id: string; name: string }; object: { id?: string; count?: number }; previous: Record<string, unknown> };
}

describe('saved searches that alert', () => {
  let clients: AlertClients;
  let t: AccessTestApp;
  let receivers: Receiver[];
  let a: string;
  let b: string;
  const ids: Record<'acme' | 'broward' | 'market' | 'theirs', string> = { acme: '', broward: '', market: '', theirs: '' };

  const call = (key: string, method: Method, url: string, payload?: unknown) => clients.call(key, method, url, payload);
  const save = async (key: string, name: string, params: Record<string, unknown>) => {
    const res = await call(key, 'POST', '/api/v1/saved-searches', { name, params });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const feed = (key: string) => clients.feed<FeedEvent>(key);
  const privateOf = (events: FeedEvent[]) => events.filter((e) => (PRIVATE_EVENT_TYPES as readonly string[]).includes(e.type));
  /** [type, saved search id, certificate id or count] of each private event, sorted. */
  const summary = (events: FeedEvent[]) =>
    privateOf(events)
      .map((e) => [e.type, e.data.saved_search!.id, e.data.object.id ?? e.data.object.count] as [string, string, string | number])
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  const ingest = (records: CertificateRecord[], name: string) => clients.ingest(records, name);

  beforeAll(async () => {
    clients = await openAlertClients(import.meta.url);
    ({ t, a, b, receivers } = clients);
  });
  afterAll(async () => {
    await clients?.close();
  });

  // Holders rotate Acme, Sunshine, Gator by n % 3, every certificate sold unless redeemed.
  const acme = (n: number) => n % 3 === 0;
  const id = (n: number) => sampleCertificate({}, n).id;
  let secret = '';
  let theirSecret = '';

  it('searches and endpoints are set up through the API; a first load gives each search that matches one matches_loaded', async () => {
    ids.acme = await save(a, 'Acme, still sold', { county: 'alachua', holder: 'Acme Tax Fund', status: 'sold' });
    ids.broward = await save(a, 'Broward', { county: 'broward' });
    ids.market = await save(a, 'The whole market', {});
    ids.theirs = await save(b, 'Alachua', { county: 'alachua' });

    const mine = await startReceiver();
    const theirs = await startReceiver();
    receivers.push(mine, theirs);
    const made = await call(a, 'POST', '/api/v1/webhook-endpoints', { url: mine.url, types: PRIVATE_EVENT_TYPES });
    expect(made.statusCode, made.body).toBe(201);
    secret = made.json().data.secret;
    const other = await call(b, 'POST', '/api/v1/webhook-endpoints', { url: theirs.url });
    expect(other.statusCode, other.body).toBe(201);
    theirSecret = other.json().data.secret;

    await ingest(alachuaCertificates(N), 'first.csv');
    const acmeCount = Array.from({ length: N }, (_, n) => n).filter(acme).length;
    expect(summary(await feed(a))).toEqual(
      [
        ['saved_search.matches_loaded', ids.acme, acmeCount],
        ['saved_search.matches_loaded', ids.market, N],
      ].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
    );
    expect(summary(await feed(b))).toEqual([['saved_search.matches_loaded', ids.theirs, N]]);
    // The count is what /matches answers.
    const matches = await call(a, 'GET', `/api/v1/saved-searches/${ids.acme}/matches?limit=1`);
    expect(matches.json().pagination.total).toBe(acmeCount);
  });

  it('a changed county file tells each search exactly what it gained, kept and lost, and only its owner', async () => {
    const seenA = privateOf(await feed(a)).length;
    const seenB = privateOf(await feed(b)).length;
    // 6 redeemed (n 0..5: Acme at 0 and 3), a new owner at 9 (Acme, sold), a new certificate 60 (Acme, sold).
    const records = alachuaCertificates(N, 6);
    records[9] = sampleCertificate({ owner_name: 'NEW OWNER LLC' }, 9);
    await ingest([...records, sampleCertificate({}, N)], 'second.csv');

    const changed = (events: FeedEvent[], from: number) => summary(privateOf(events).slice(from));
    const sorted = (rows: [string, string, string][]) => rows.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    const mine = (await feed(a)) as FeedEvent[];
    expect(changed(mine, seenA)).toEqual(
      sorted([
        ['saved_search.match_removed', ids.acme, id(0)],
        ['saved_search.match_removed', ids.acme, id(3)],
        ['saved_search.match_updated', ids.acme, id(9)],
        ['saved_search.match_added', ids.acme, id(N)],
        ...[0, 1, 2, 3, 4, 5, 9].map((n) => ['saved_search.match_updated', ids.market, id(n)] as [string, string, string]),
        ['saved_search.match_added', ids.market, id(N)],
      ]),
    );
    expect(changed(await feed(b), seenB)).toEqual(
      sorted([
        ...[0, 1, 2, 3, 4, 5, 9].map((n) => ['saved_search.match_updated', ids.theirs, id(n)] as [string, string, string]),
        ['saved_search.match_added', ids.theirs, id(N)],
      ]),
    );
    // Each carries the search, the row as /certificates/{id} renders it and the changed fields' old values.
    const removed = privateOf(mine).find((e) => e.type === 'saved_search.match_removed')!;
    expect(removed.data.saved_search).toEqual({ id: ids.acme, name: 'Acme, still sold' });
    expect(removed.data.previous).toMatchObject({ status: 'sold', redeemed: false });
    const row = await call(a, 'GET', `/api/v1/certificates/${removed.data.object.id}`);
    expect(removed.data.object).toEqual(row.json().data);
    // Neither feed names the other's search anywhere.
    expect(JSON.stringify(await feed(b))).not.toContain(ids.acme);
    expect(JSON.stringify(await feed(a))).not.toContain(ids.theirs);
  });

  it("each endpoint receives its owner's events once, signed, and never the other client's", async () => {
    const expectDelivered = async (key: string, receiver: Receiver, signing: string, expected: FeedEvent[]) => {
      await until(() => receiver.received.length >= expected.length, `${expected.length} deliveries`);
      const verifier = new Webhook(signing);
      const got = receiver.received.map(
        (r) =>
          verifier.verify(r.body, {
            'webhook-id': String(r.headers['webhook-id']),
            'webhook-timestamp': String(r.headers['webhook-timestamp']),
            'webhook-signature': String(r.headers['webhook-signature']),
          }) as FeedEvent,
      );
      expect(got.map((e) => e.id).sort()).toEqual(expected.map((e) => e.id).sort());
      expect(key).toBeTruthy();
    };
    const mineExpected = privateOf(await feed(a));
    await expectDelivered(a, receivers[0]!, secret, mineExpected);
    // The other client's endpoint takes every type: the public events and its own search's, none of A's.
    const theirsExpected = await feed(b);
    await expectDelivered(b, receivers[1]!, theirSecret, theirsExpected);
    for (const r of receivers[1]!.received) for (const s of [ids.acme, ids.market, ids.broward]) expect(r.body).not.toContain(s);
    const endpoints = (await call(a, 'GET', '/api/v1/webhook-endpoints')).json().data as { id: string }[];
    const rows = (await listDeliveries(t.runtime.sql, endpoints[0]!.id, { limit: 500, offset: 0 })).rows;
    expect(rows).toHaveLength(mineExpected.length);
  });

  it('a deleted search records nothing more; the others go on', async () => {
    const seenA = privateOf(await feed(a)).length;
    expect((await call(a, 'DELETE', `/api/v1/saved-searches/${ids.market}`)).statusCode).toBe(200);
    // n 6..8 redeemed as well (Acme at 6), the rest as before.
    const records = alachuaCertificates(N, 9);
    records[9] = sampleCertificate({ owner_name: 'NEW OWNER LLC' }, 9);
    await ingest([...records, sampleCertificate({}, N)], 'third.csv');
    expect(summary(privateOf(await feed(a)).slice(seenA))).toEqual([['saved_search.match_removed', ids.acme, id(6)]]);
  });
});
