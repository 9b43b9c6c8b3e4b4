// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumeToken, issueToken, peekToken, pruneTokens } from '../../../../../services/control/accounts/email-tokens.ts';
import {
  createSession,
  deleteUserSessions,
  pruneSessions,
  SESSION_IDLE_MS,
  useSession,
} from '../../../../../services/control/accounts/sessions.ts';
import { appendEvents, type EventInput, type EventOwner } from '../../../../../services/control/feed/events.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import {
  createUser,
  EmailTakenError,
  findUserByEmail,
  listUsers,
  markEmailVerified,
  recordSignIn,
  setPasswordHash,
} from '../../../../../services/control/accounts/users.ts';
import {
  deliveryState,
  failWithoutAttempt,
  fanOut,
  listDeliveries,
  markEnqueued,
  outbox,
  overdueDeliveries,
  recordOutcomes,
  replay,
} from '../../../../../services/control/feed/webhook-deliveries.ts';
import { dispatchCursor } from '../../../../../services/control/feed/webhook-dispatch.ts';
import {
  deleteEndpoint,
  endpointTarget,
  getEndpoint,
  listEndpoints,
  noteAttemptOutcome,
  rotateSecret,
  setEndpointStatus,
  signingSecrets,
} from '../../../../../services/control/feed/webhook-endpoints.ts';
import { createSecretBox } from '../../../../../services/control/feed/webhook-secrets.ts';
import { openTestControl } from '../../../../helpers/control.ts';

/** A replay budget these tests never reach (webhook-fairness.test.ts tests the budget). */
const REPLAYS = { perMinute: 10_000 };

/**
 * The accounts and webhooks modules on the control plane alone: the same calls and answers on
 * SQLite and, under TEST_DATABASE_URL, on PostgreSQL. Clients, endpoints and events are written
 * with plain SQL here, so only this group's modules are under test.
 */

let sql: Sql;
const box = createSecretBox('a test key of more than thirty-two characters');
let serial = 0;

beforeAll(async () => {
  sql = await openTestControl({ label: 'accounts_webhooks' });
});
afterAll(async () => sql?.close());

async function client(plan = 'growth'): Promise<string> {
  const id = `cli_aw_${++serial}`;
  await sql.run('INSERT INTO clients (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [
    id,
    `client ${serial}`,
    plan,
    new Date().toISOString(),
  ]);
  return id;
}

async function endpoint(
  clientId: string,
  filters: { types?: string[]; counties?: string[]; savedSearches?: string[] } = {},
): Promise<string> {
  const id = `whe_aw_${++serial}`;
  await sql.run(
    `INSERT INTO webhook_endpoints (id, client_id, url, types, counties, saved_searches, secret, after_event_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      id,
      clientId,
      `https://hooks.example.com/${id}`,
      filters.types ? JSON.stringify(filters.types) : null,
      filters.counties ? JSON.stringify(filters.counties) : null,
      filters.savedSearches ? JSON.stringify(filters.savedSearches) : null,
      box.seal('whsec_first', id),
      await dispatchCursor(sql),
      new Date().toISOString(),
    ],
  );
  return id;
}

async function event(type: string, county: string | null, createdAt = new Date().toISOString()): Promise<number> {
  const row = await sql.get<{ id: number }>('INSERT INTO events (type, created_at, county_slug, data) VALUES (?, ?, ?, ?) RETURNING id', [
    type,
    createdAt,
    county,
    '{}',
  ]);
  return row!.id;
}

describe('users, sessions and mailed links', () => {
  it('one user per address, however it is typed; verification keeps its first time', async () => {
    const clientId = await client('free_trial');
    const now = new Date('2026-05-01T08:00:00.000Z');
    const user = await createUser(sql, { clientId, email: ' Person@Example.com ', passwordHash: 'h1', now });
    expect(user).toMatchObject({ clientId, email: 'person@example.com', emailVerifiedAt: null, lastSignInAt: null });
    await expect(createUser(sql, { clientId, email: 'PERSON@example.com', passwordHash: 'h2', now })).rejects.toThrow(EmailTakenError);
    expect((await findUserByEmail(sql, 'person@EXAMPLE.com'))?.id).toBe(user.id);
    await markEmailVerified(sql, user.id, now);
    await markEmailVerified(sql, user.id, new Date('2026-05-02T08:00:00.000Z'));
    await recordSignIn(sql, user.id, now);
    await setPasswordHash(sql, user.id, 'h3');
    expect(await listUsers(sql, clientId)).toEqual([
      expect.objectContaining({ id: user.id, passwordHash: 'h3', emailVerifiedAt: now.toISOString(), lastSignInAt: now.toISOString() }),
    ]);
  });

  it('a session restarts its idle clock when used, ends when idle, and is pruned', async () => {
    const clientId = await client('free_trial');
    const start = new Date('2026-05-01T08:00:00.000Z');
    const user = await createUser(sql, { clientId, email: `s${serial}@example.com`, passwordHash: 'h', now: start });
    const cookie = await createSession(sql, user.id, start);
    const later = new Date(start.getTime() + SESSION_IDLE_MS - 1000);
    expect(await useSession(sql, cookie, later)).toEqual({
      session: { userId: user.id, createdAt: start.toISOString(), lastSeenAt: later.toISOString() },
    });
    expect(await useSession(sql, cookie, new Date(later.getTime() + SESSION_IDLE_MS))).toEqual({ ended: 'idle' });
    expect(await useSession(sql, cookie, later)).toBeNull();

    await createSession(sql, user.id, start);
    expect(await pruneSessions(sql, new Date(start.getTime() + SESSION_IDLE_MS))).toBe(1);
    const kept = await createSession(sql, user.id, start);
    await deleteUserSessions(sql, user.id);
    expect(await useSession(sql, kept, start)).toBeNull();
  });

  it('only the newest link works, once, and spent links are pruned a day later', async () => {
    const clientId = await client('free_trial');
    const now = new Date('2026-05-01T08:00:00.000Z');
    const user = await createUser(sql, { clientId, email: `t${serial}@example.com`, passwordHash: 'h', now });
    const first = await issueToken(sql, user.id, 'reset', now);
    const second = await issueToken(sql, user.id, 'reset', now);
    expect(await peekToken(sql, first, 'reset', now)).toBeNull();
    expect(await peekToken(sql, second, 'reset', now)).toBe(user.id);
    expect(await consumeToken(sql, second, 'verify', now)).toBeNull();
    expect(await consumeToken(sql, second, 'reset', now)).toBe(user.id);
    expect(await consumeToken(sql, second, 'reset', now)).toBeNull();
    expect(await pruneTokens(sql, new Date(now.getTime() + 2 * 24 * 3600 * 1000))).toBe(2);
  });
});

describe('webhook deliveries', () => {
  it('fan out to the endpoints whose filters take each event, once, and move the cursor', async () => {
    const clientId = await client();
    const every = await endpoint(clientId);
    const redeemedBroward = await endpoint(clientId, { types: ['certificate.redeemed'], counties: ['broward'] });
    const before = await dispatchCursor(sql);
    const a = await event('certificate.redeemed', 'broward');
    const b = await event('certificate.redeemed', 'alachua');
    const c = await event('county.coverage_changed', null);

    const pass = await fanOut(sql, 100);
    expect(pass).toEqual({ fromEventId: before, toEventId: c, deliveries: 4 });
    expect(await dispatchCursor(sql)).toBe(c);
    expect(await fanOut(sql, 100)).toEqual({ fromEventId: c, toEventId: c, deliveries: 0 });
    const eventsOf = async (id: string) => (await listDeliveries(sql, id, { limit: 10, offset: 0 })).rows.map((d) => d.eventId);
    expect(await eventsOf(every)).toEqual([c, b, a]);
    expect(await eventsOf(redeemedBroward)).toEqual([a]);

    const queued = await outbox(sql, 100);
    expect(queued.map((r) => r.eventId).sort()).toEqual([a, a, b, c].sort());
    expect(queued[0]).toEqual({ id: expect.any(Number), endpointId: expect.any(String), eventId: expect.any(Number), generation: 0 });
    await markEnqueued(sql, queued);
    expect(await outbox(sql, 100)).toEqual([]);
  });

  it('record attempts with their outcome, list them, replay, and disable an endpoint that fails too long', async () => {
    const clientId = await client();
    const id = await endpoint(clientId);
    const since = new Date().toISOString();
    const seq = await event('certificate.cancelled', 'duval');
    const other = await event('certificate.cancelled', 'duval');
    await fanOut(sql, 100);
    const [second, first] = (await listDeliveries(sql, id, { limit: 10, offset: 0 })).rows;
    expect(first!.eventId).toBe(seq);
    await markEnqueued(sql, await outbox(sql, 100));

    const at = '2026-05-01T08:00:00.000Z';
    const retryAt = '2026-05-01T08:00:05.000Z';
    expect(
      await recordOutcomes(
        sql,
        [
          {
            deliveryId: first!.id,
            generation: 0,
            attempt: 1,
            startedAt: at,
            durationMs: 10,
            httpStatus: 500,
            error: null,
            responseBody: 'boom',
            endpointId: id,
            gone: false,
            next: { kind: 'retry', at: retryAt },
          },
          {
            deliveryId: first!.id,
            generation: 0,
            attempt: 2,
            startedAt: at,
            durationMs: 5,
            httpStatus: 204,
            error: null,
            responseBody: '',
            endpointId: id,
            gone: false,
            next: { kind: 'delivered' },
          },
        ],
        60_000,
      ),
    ).toEqual([]);
    expect(await deliveryState(sql, first!.id)).toEqual({
      id: first!.id,
      endpointId: id,
      eventId: seq,
      generation: 0,
      status: 'delivered',
      attempts: 2,
      nextAttemptAt: null,
    });
    const delivered = await listDeliveries(sql, id, { status: 'delivered', limit: 10, offset: 0 });
    expect(delivered.total).toBe(1);
    expect(delivered.rows[0]!.attemptLog.map((a) => [a.attempt, a.httpStatus, a.responseBody])).toEqual([
      [1, 500, 'boom'],
      [2, 204, ''],
    ]);
    expect((await listDeliveries(sql, id, { eventId: other, limit: 10, offset: 0 })).rows.map((d) => d.id)).toEqual([second!.id]);

    // Overdue: queued, pending, due long ago.
    expect((await overdueDeliveries(sql, new Date().toISOString(), 10)).map((r) => r.id)).toContain(second!.id);
    await failWithoutAttempt(sql, second!.id, 0, 'endpoint disabled');
    expect(await deliveryState(sql, second!.id)).toMatchObject({ status: 'failed', nextAttemptAt: null });

    const endpointNow = (await getEndpoint(sql, id))!;
    expect(await replay(sql, endpointNow, { eventId: seq }, REPLAYS)).toBe(1);
    expect(await replay(sql, endpointNow, { eventId: seq }, REPLAYS)).toBe(0);
    expect(await deliveryState(sql, first!.id)).toMatchObject({ generation: 1, status: 'pending', attempts: 0 });
    // Both events again: the failed one goes back to pending, the pending one is left alone.
    expect(await replay(sql, endpointNow, { from: since, to: '2100-01-01T00:00:00.000Z' }, REPLAYS)).toBe(1);

    // Failures for a minute disable it; the first failure alone does not.
    expect(await noteAttemptOutcome(sql, id, false, '2026-05-01T08:00:00.000Z', 60_000)).toBe(false);
    expect(await noteAttemptOutcome(sql, id, false, '2026-05-01T08:01:00.000Z', 60_000)).toBe(true);
    expect(await endpointTarget(sql, id)).toEqual({
      clientId,
      url: `https://hooks.example.com/${id}`,
      status: 'disabled',
      disabledReason: 'failing',
    });
    expect((await setEndpointStatus(sql, id, { status: 'enabled' }))?.failingSince).toBeNull();
  });

  it('a replay to a range takes only the events the endpoint subscribes to', async () => {
    const clientId = await client();
    const id = await endpoint(clientId, { types: ['certificate.redeemed'], counties: ['alachua'] });
    const inside = await event('certificate.redeemed', 'alachua', '2030-01-01T00:00:01.000Z');
    await event('certificate.redeemed', 'broward', '2030-01-01T00:00:02.000Z');
    await event('certificate.created', 'alachua', '2030-01-01T00:00:03.000Z');
    await event('certificate.redeemed', 'alachua', '2030-01-02T00:00:00.000Z');
    expect(
      await replay(sql, (await getEndpoint(sql, id))!, { from: '2030-01-01T00:00:00.000Z', to: '2030-01-01T23:59:59.000Z' }, REPLAYS),
    ).toBe(1);
    expect((await listDeliveries(sql, id, { limit: 10, offset: 0 })).rows.map((d) => d.eventId)).toEqual([inside]);
  });

  it("send a saved search's event only to its owner's endpoints, of the searches each chose; replay keeps to the same rule", async () => {
    // Earlier tests' events fanned out first: these endpoints start after them.
    await fanOut(sql, 1000);
    const [a, b] = [await client(), await client()];
    const aAll = await endpoint(a);
    const aFirst = await endpoint(a, { savedSearches: ['ss_aw_a1', 'ss_aw_gone'] });
    const aAdded = await endpoint(a, { types: ['saved_search.match_added'] });
    const bAll = await endpoint(b);
    const at = '2031-01-01T00:00:00.000Z';
    const mine = (id: string) => ({ clientId: a, savedSearchId: id });
    const match = (type: EventInput['type'], owner?: EventOwner): EventInput => ({
      type,
      countySlug: 'alachua',
      data: { object: {}, previous: {}, ...(owner ? { saved_search: { id: owner.savedSearchId!, name: 'n' } } : {}) },
      ...(owner ? { owner } : {}),
    });
    const [pub, a1, a2, b1, a1removed] = await appendEvents(sql, [
      match('certificate.redeemed'),
      match('saved_search.match_added', mine('ss_aw_a1')),
      match('saved_search.match_added', mine('ss_aw_a2')),
      match('saved_search.match_added', { clientId: b, savedSearchId: 'ss_aw_b1' }),
      match('saved_search.match_removed', mine('ss_aw_a1')),
    ]);
    await sql.run('UPDATE events SET created_at = ? WHERE id >= ?', [at, pub]);
    await fanOut(sql, 100);
    const eventsOf = async (id: string) =>
      (await listDeliveries(sql, id, { limit: 10, offset: 0 })).rows.map((d) => d.eventId).sort((x, y) => x - y);
    expect(await eventsOf(aAll)).toEqual([pub, a1, a2, a1removed]);
    // Public events whatever saved_searches says; of A's own, only the chosen search's.
    expect(await eventsOf(aFirst)).toEqual([pub, a1, a1removed]);
    expect(await eventsOf(aAdded)).toEqual([a1, a2]);
    expect(await eventsOf(bAll)).toEqual([pub, b1]);
    // No endpoint of any other test's client took a private event.
    const leaked = await sql.get<{ n: number }>(
      `SELECT count(*) AS n FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE ev.client_id IS NOT NULL AND ev.client_id <> e.client_id`,
    );
    expect(Number(leaked!.n)).toBe(0);

    const range = { from: at, to: '2031-01-01T00:00:01.000Z' };
    await sql.run("UPDATE webhook_deliveries SET status = 'failed' WHERE endpoint_id IN (?, ?)", [aFirst, bAll]);
    expect(await replay(sql, (await getEndpoint(sql, aFirst))!, range, REPLAYS)).toBe(3);
    expect(await replay(sql, (await getEndpoint(sql, bAll))!, range, REPLAYS)).toBe(2);
    expect(await eventsOf(aFirst)).toEqual([pub, a1, a1removed]);
    expect(await eventsOf(bAll)).toEqual([pub, b1]);
    // Another client's event is as unknown as a missing one; an unchosen search's is not subscribed.
    await expect(replay(sql, (await getEndpoint(sql, bAll))!, { eventId: a1! }, REPLAYS)).rejects.toMatchObject({ code: 'unknown_event' });
    await expect(replay(sql, (await getEndpoint(sql, aFirst))!, { eventId: a2! }, REPLAYS)).rejects.toMatchObject({
      code: 'not_subscribed',
    });
    // The owner's chosen search's event is accepted (0: the range replay has it pending already).
    expect(await replay(sql, (await getEndpoint(sql, aFirst))!, { eventId: a1! }, REPLAYS)).toBe(0);
  });

  it("send a portfolio's event to every endpoint of its owner that takes the type, whatever saved searches it chose; replay too", async () => {
    await fanOut(sql, 1000);
    const [a, b] = [await client(), await client()];
    const aAll = await endpoint(a);
    const aSearches = await endpoint(a, { savedSearches: ['ss_pf_a1'] });
    const aOther = await endpoint(a, { types: ['certificate.redeemed'] });
    const bAll = await endpoint(b);
    const at = '2032-01-01T00:00:00.000Z';
    const [changed, other] = await appendEvents(sql, [
      {
        type: 'portfolio.position_changed',
        countySlug: 'alachua',
        data: { portfolio: { id: 'pf_a', name: 'n' }, position: { id: 'pos_a' }, change: 'certificate.redeemed', object: {}, previous: {} },
        owner: { clientId: a, portfolioId: 'pf_a' },
      },
      {
        type: 'portfolio.position_changed',
        countySlug: 'alachua',
        data: { portfolio: { id: 'pf_b', name: 'n' }, position: { id: 'pos_b' }, change: 'certificate.updated', object: {}, previous: {} },
        owner: { clientId: b, portfolioId: 'pf_b' },
      },
    ]);
    await sql.run('UPDATE events SET created_at = ? WHERE id >= ?', [at, changed]);
    await fanOut(sql, 100);
    const eventsOf = async (id: string) => (await listDeliveries(sql, id, { limit: 10, offset: 0 })).rows.map((d) => d.eventId);
    expect(await eventsOf(aAll)).toEqual([changed]);
    expect(await eventsOf(aSearches)).toEqual([changed]);
    expect(await eventsOf(aOther)).toEqual([]);
    expect(await eventsOf(bAll)).toEqual([other]);
    await sql.run("UPDATE webhook_deliveries SET status = 'failed' WHERE endpoint_id = ?", [aSearches]);
    expect(await replay(sql, (await getEndpoint(sql, aSearches))!, { from: at, to: '2032-01-01T00:00:01.000Z' }, REPLAYS)).toBe(1);
    await expect(replay(sql, (await getEndpoint(sql, bAll))!, { eventId: changed! }, REPLAYS)).rejects.toMatchObject({
      code: 'unknown_event',
    });
  });

  it('rotated secrets sign beside the old one for a day; deleting an endpoint takes its deliveries', async () => {
    const clientId = await client();
    const id = await endpoint(clientId);
    const now = new Date('2026-05-01T08:00:00.000Z');
    const rotated = (await rotateSecret(sql, box, id, now))!;
    expect(rotated.endpoint.secretRotatedAt).toBe(now.toISOString());
    expect(await signingSecrets(sql, box, id, now)).toEqual([rotated.secret, 'whsec_first']);
    expect(await signingSecrets(sql, box, id, new Date(now.getTime() + 25 * 3600 * 1000))).toEqual([rotated.secret]);
    expect(await rotateSecret(sql, box, 'whe_nobody', now)).toBeNull();

    await event('certificate.redeemed', 'alachua');
    await fanOut(sql, 100);
    expect((await listEndpoints(sql, clientId)).map((e) => e.id)).toEqual([id]);
    expect(await deleteEndpoint(sql, id)).toBe(true);
    expect(await deleteEndpoint(sql, id)).toBe(false);
    expect(await listEndpoints(sql, clientId)).toEqual([]);
    expect((await listDeliveries(sql, id, { limit: 10, offset: 0 })).total).toBe(0);
  });
});
