// @module-tag postgres
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followedPositionId } from '../../../../services/domain/position-ids.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import type { AccessTestApp } from '../../../helpers/access.ts';
import { type AlertClients, type Method, openAlertClients } from '../../../helpers/alert-clients.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';
import { until } from '../../../helpers/until.ts';
import { type Receiver, startReceiver } from '../../../helpers/webhook-receiver.ts';

/**
 * A portfolio hears of its certificates' changes, end to end through the API: two clients keep
 * portfolios (positions, and one following a holder group) and webhook endpoints over REST, county
 * files go through the real queue and worker, and each client gets portfolio.position_changed for
 * its own holdings only, in its feed and signed at its endpoint, and nothing of the other's.
 */

const N = 12;

interface FeedEvent {
  id: string;
  type: string;
  data: {
    portfolio?: { id: string; name: string };
    position?: { id: string };
    change?: string;
    object: { id: string };
    previous: Record<string, unknown>;
  };
}

describe('portfolios that hear of their certificates', () => {
  let clients: AlertClients;
  let t: AccessTestApp;
  let receivers: Receiver[];
  let a: string;
  let b: string;
  const pf = { book: '', gator: '', theirs: '' };
  const positions: Record<string, string> = {};
  let secret = '';
  let theirSecret = '';
  /** B's feed when its endpoint was made: an endpoint receives the events after it. */
  let theirsBefore = 0;

  const call = (key: string, method: Method, url: string, payload?: unknown) => clients.call(key, method, url, payload);
  const feed = (key: string) => clients.feed<FeedEvent>(key);
  const changesOf = (events: FeedEvent[]) => events.filter((e) => e.type === 'portfolio.position_changed');
  /** [portfolio, certificate, change] of each position_changed, sorted. */
  const summary = (events: FeedEvent[]) =>
    changesOf(events)
      .map((e) => [e.data.portfolio!.id, e.data.object.id, e.data.change!])
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  const sorted = (rows: string[][]) => rows.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  const ingest = (records: CertificateRecord[], name: string) => clients.ingest(records, name);
  const id = (n: number) => sampleCertificate({}, n).id;
  const hold = async (key: string, portfolio: string, ns: number[]) => {
    const added = await call(key, 'POST', `/api/v1/portfolios/${portfolio}/positions`, {
      positions: ns.map((n) => ({ certificate_id: id(n) })),
    });
    expect(added.statusCode, added.body).toBe(200);
    for (const l of added.json().data.lines as { position: { id: string; certificate_id: string } }[])
      positions[`${portfolio}|${l.position.certificate_id}`] = l.position.id;
  };
  const portfolio = async (key: string, body: object) => {
    const made = await call(key, 'POST', '/api/v1/portfolios', body);
    expect(made.statusCode, made.body).toBe(201);
    return made.json().data.id as string;
  };

  beforeAll(async () => {
    clients = await openAlertClients(import.meta.url);
    ({ t, a, b, receivers } = clients);
  });
  afterAll(async () => {
    await clients?.close();
  });

  // Holders rotate Acme, Sunshine, Gator by n % 3.
  it('portfolios and endpoints are set up through the API; a first load records no position change', async () => {
    await ingest(alachuaCertificates(N), 'first.csv');
    const gator = await t.runtime.opensearch.get({ index: aliasName(t.config.INDEX_PREFIX, 'certificates'), id: id(2) });
    const group = (gator.body._source as { holder_group_id: string }).holder_group_id;
    pf.book = await portfolio(a, { name: 'Book' });
    pf.gator = await portfolio(a, { name: 'Gator watch', follow_holder_group: group });
    pf.theirs = await portfolio(b, { name: 'Theirs' });
    await hold(a, pf.book, [0, 4]);
    await hold(b, pf.theirs, [5]);

    const mine = await startReceiver();
    const theirs = await startReceiver();
    receivers.push(mine, theirs);
    const made = await call(a, 'POST', '/api/v1/webhook-endpoints', { url: mine.url, types: ['portfolio.position_changed'] });
    expect(made.statusCode, made.body).toBe(201);
    secret = made.json().data.secret;
    const other = await call(b, 'POST', '/api/v1/webhook-endpoints', { url: theirs.url });
    expect(other.statusCode, other.body).toBe(201);
    theirSecret = other.json().data.secret;
    theirsBefore = (await feed(b)).length;
    expect(changesOf(await feed(a))).toEqual([]);
  });

  it("a changed county file tells each portfolio of its holdings' changes only, and only its owner", async () => {
    // n 0..5 redeemed; 8 (Gator) sold on to Acme: Gator watch hears it leave the group.
    const records = alachuaCertificates(N, 6);
    records[8] = sampleCertificate({ holder_name: 'Acme Tax Fund LLC' }, 8);
    await ingest(records, 'second.csv');

    const mine = await feed(a);
    expect(summary(mine)).toEqual(
      sorted([
        [pf.book, id(0), 'certificate.redeemed'],
        [pf.book, id(4), 'certificate.redeemed'],
        [pf.gator, id(2), 'certificate.redeemed'],
        [pf.gator, id(5), 'certificate.redeemed'],
        [pf.gator, id(8), 'certificate.updated'],
      ]),
    );
    expect(summary(await feed(b))).toEqual([[pf.theirs, id(5), 'certificate.redeemed']]);
    // Each names its portfolio and position and carries the public event's object and previous.
    const held = changesOf(mine).find((e) => e.data.object.id === id(0))!;
    expect(held.data.portfolio).toEqual({ id: pf.book, name: 'Book' });
    expect(held.data.position).toEqual({ id: positions[`${pf.book}|${id(0)}`] });
    expect(held.data.previous).toMatchObject({ status: 'sold', redeemed: false });
    expect(held.data.object).toEqual((await call(a, 'GET', `/api/v1/certificates/${id(0)}`)).json().data);
    // Through the followed group: the followed position, as the portfolio's positions list it.
    const followed = changesOf(mine).find((e) => e.data.object.id === id(8))!;
    expect(followed.data.position).toEqual({ id: followedPositionId(pf.gator, id(8)) });
    const pub = mine.find((e) => e.type === 'certificate.redeemed' && e.data.object.id === id(0))!;
    expect(held.data.previous).toEqual(pub.data.previous);
    // Neither feed names the other's portfolios anywhere; a type filter shows only one's own.
    expect(JSON.stringify(await feed(b))).not.toContain(pf.book);
    expect(JSON.stringify(await feed(b))).not.toContain(pf.gator);
    expect(JSON.stringify(await feed(a))).not.toContain(pf.theirs);
    const filtered = await call(b, 'GET', '/api/v1/events?type=portfolio.position_changed');
    expect(filtered.json().pagination.total).toBe(1);
  });

  it("each endpoint receives its owner's portfolio events once, signed, and never the other client's", async () => {
    const verify = (signing: string, receiver: Receiver) => {
      const verifier = new Webhook(signing);
      return receiver.received.map(
        (r) =>
          verifier.verify(r.body, {
            'webhook-id': String(r.headers['webhook-id']),
            'webhook-timestamp': String(r.headers['webhook-timestamp']),
            'webhook-signature': String(r.headers['webhook-signature']),
          }) as FeedEvent,
      );
    };
    const mineExpected = changesOf(await feed(a));
    await until(() => receivers[0]!.received.length >= mineExpected.length, `${mineExpected.length} deliveries`);
    expect(
      verify(secret, receivers[0]!)
        .map((e) => e.id)
        .sort(),
    ).toEqual(mineExpected.map((e) => e.id).sort());
    const theirsExpected = (await feed(b)).slice(theirsBefore);
    await until(() => receivers[1]!.received.length >= theirsExpected.length, `${theirsExpected.length} deliveries`);
    const got = verify(theirSecret, receivers[1]!);
    expect(got.map((e) => e.id).sort()).toEqual(theirsExpected.map((e) => e.id).sort());
    expect(summary(got)).toEqual([[pf.theirs, id(5), 'certificate.redeemed']]);
    for (const r of receivers[1]!.received) for (const p of [pf.book, pf.gator]) expect(r.body).not.toContain(p);
  });

  it('a deleted portfolio or position records nothing more; a new position does', async () => {
    const seen = changesOf(await feed(a)).length;
    expect((await call(a, 'DELETE', `/api/v1/portfolios/${pf.gator}`)).statusCode).toBe(200);
    const removed = await call(a, 'DELETE', `/api/v1/portfolios/${pf.book}/positions/${positions[`${pf.book}|${id(4)}`]}`);
    expect(removed.statusCode, removed.body).toBe(200);
    await hold(a, pf.book, [7]);
    // n 6..8 redeemed as well, and 4 changes again (its holder): the removed position hears nothing.
    const records = alachuaCertificates(N, 9);
    records[4] = sampleCertificate({ status: 'redeemed', redeemed: true, redeemed_date: '2025-03-01', holder_name: 'Gator Capital' }, 4);
    await ingest(records, 'third.csv');
    expect(summary(changesOf(await feed(a)).slice(seen))).toEqual([[pf.book, id(7), 'certificate.redeemed']]);
  });
});
