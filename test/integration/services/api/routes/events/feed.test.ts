// @module-tag postgres
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOldEvents } from '../../../../../../indexer/events/prune.ts';
import { buildApp } from '../../../../../../services/api/app.ts';
import { EventList } from '../../../../../../services/api/routes/events/row.ts';
import { enqueueFiles } from '../../../../../../services/process/ingest-runner.ts';
import { countEventsAfter, type EventFilter, eventsAfter, publicEventId } from '../../../../../../services/control/feed/events.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../../helpers/access.ts';
import { alachuaCertificates, alachuaJob, writeAlachuaFile } from '../../../../../helpers/event-files.ts';
import { fixtureFile } from '../../../../../helpers/file-ingest.ts';
import { connectMcp, errorBody, texts } from '../../../../../helpers/mcp.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';

/**
 * The change feed: GET /api/v1/events over events real ingests recorded (two counties, a first load
 * each, a file of redemptions and one of updates). A client that stores the last id it saw and
 * polls never misses an event and never sees one twice, filtered or not; the cursor's errors; the
 * MCP tool; the credit.
 */

interface Page {
  data: { id: string; type: string; county_slug: string; data: { object: Record<string, unknown>; previous: Record<string, unknown> } }[];
  pagination: { limit: number; offset: number; total: number; has_more: boolean; next_after: string | null };
  meta: { request_id: string };
}

describe('GET /api/v1/events, the change feed', () => {
  let t: TestRuntime;
  let app: FastifyInstance;
  let dir: string;
  let auth: Record<string, string> = {};
  const get = (url: string) => app.inject({ method: 'GET', url, headers: auth });
  const page = async (url: string): Promise<Page> => {
    const res = await get(url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Page;
  };
  const ingest = async (jobs: Parameters<typeof enqueueFiles>[1]) => {
    for (const o of await enqueueFiles(t.runtime, jobs, { wait: true })) expect(o.status, o.error).toBe('succeeded');
  };
  /** What the table holds for a filter, as public ids (every event here is public: any viewer reads them all). */
  const viewer = 'cli_feedreader';
  const stored = async (filter: Partial<EventFilter> = {}) =>
    (await eventsAfter(t.runtime.sql, { viewer, afterSeq: 0, ...filter }, 1_000_000)).map((e) => publicEventId(e.seq));

  /** Follows the feed as a poller does: next_after back as after, until has_more is false. */
  async function walk(query: string, after?: string): Promise<{ ids: string[]; last: Page }> {
    const ids: string[] = [];
    let cursor = after;
    for (;;) {
      const url = `/api/v1/events?${query}${cursor ? `&after=${cursor}` : ''}`;
      const p = await page(url);
      expect(EventList.safeParse(p).success, JSON.stringify(p).slice(0, 300)).toBe(true);
      ids.push(...p.data.map((e) => e.id));
      cursor = p.pagination.next_after ?? undefined;
      if (!p.pagination.has_more) return { ids, last: p };
    }
  }

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-feed-'));
    await ingest([
      { dataset: 'certificates', file: fixtureFile('lienport-csv', 'good.csv'), vendor: 'lienport', county: 'miami-dade', taxYear: 2024 },
      alachuaJob(await writeAlachuaFile(dir, 'first.csv', alachuaCertificates(60))),
    ]);
    await ingest([alachuaJob(await writeAlachuaFile(dir, 'redeemed.csv', alachuaCertificates(60, 40)))]);
    auth = await apiKeyHeaders(t.runtime);
    app = await buildApp(t.runtime);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('walks from the first event to the last, oldest first, without gaps or repeats', async () => {
    const all = await stored();
    expect(all.length).toBeGreaterThan(40);
    const first = await page('/api/v1/events?limit=7');
    expect(first.pagination).toEqual({ limit: 7, offset: 0, total: all.length, has_more: true, next_after: first.data[6]!.id });
    const { ids, last } = await walk('limit=7');
    expect(ids).toEqual(all);
    expect(new Set(ids).size).toBe(ids.length);
    // The last page says where to poll from next: the last event recorded.
    expect(last.pagination).toMatchObject({ has_more: false, next_after: all.at(-1) });
    expect((await page('/api/v1/events')).pagination.limit).toBe(100);
  });

  it('filters by type and county (several values, comma-separated or repeated) and totals what matches after the cursor', async () => {
    const types = ['certificate.redeemed', 'certificates.loaded'];
    const expected = await stored({ types, counties: ['alachua'] });
    expect(expected.length).toBe(41);
    const { ids } = await walk(`type=${types.join(',')}&county=alachua&limit=9`);
    expect(ids).toEqual(expected);
    const repeated = await page(
      `/api/v1/events?type=certificate.redeemed&type=certificates.loaded&county=alachua&limit=5&after=${expected[10]}`,
    );
    const afterSeq = Number(expected[10]!.slice(4));
    expect(repeated.pagination.total).toBe(await countEventsAfter(t.runtime.sql, { viewer, afterSeq, types, counties: ['alachua'] }));
    expect(repeated.data.map((e) => e.id)).toEqual(expected.slice(11, 16));
    const dade = await walk('county=miami-dade');
    expect(dade.ids).toEqual(await stored({ counties: ['miami-dade'] }));
    expect(dade.ids.length).toBeGreaterThan(0);
  });

  it('hands a poller what was recorded since its cursor, and a filtered poller moves its cursor past what it filters out', async () => {
    const head = (await walk('limit=500')).last.pagination.next_after!;
    const redeemedHead = (await walk('type=certificate.redeemed')).last.pagination.next_after!;
    expect(redeemedHead).toBe(head);
    const before = (await stored()).length;
    // An update of one certificate's owner, and nothing else.
    const records = alachuaCertificates(60, 40);
    records[50] = { ...records[50]!, owner_name: 'NEW OWNER LLC' };
    await ingest([alachuaJob(await writeAlachuaFile(dir, 'updated.csv', records))]);
    const since = await page(`/api/v1/events?after=${head}`);
    expect(since.data.map((e) => [e.type, e.data.previous])).toEqual([
      ['certificate.updated', { owner_name: alachuaCertificates(60)[50]!.owner_name }],
    ]);
    expect(since.pagination).toMatchObject({ total: 1, has_more: false, next_after: (await stored()).at(-1) });
    expect((await stored()).length).toBe(before + 1);
    const filtered = await page(`/api/v1/events?type=certificate.redeemed&after=${redeemedHead}`);
    expect(filtered.data).toEqual([]);
    expect(filtered.pagination).toEqual({ limit: 100, offset: 0, total: 0, has_more: false, next_after: (await stored()).at(-1) });
  });

  it('answers 400 naming after for a malformed or unknown cursor, and names each bad filter', async () => {
    const last = (await stored()).at(-1)!;
    const beyond = publicEventId(Number(last.slice(4)) + 1);
    const cases: [string, string, RegExp][] = [
      ['after=42', 'after', /must be an event id such as evt_42/],
      ['after=evt_0', 'after', /must be an event id/],
      ['after=evt_1,evt_2', 'after', /takes one event id/],
      [`after=${beyond}`, 'after', new RegExp(`no event has the id ${beyond}: the last event recorded is ${last}`)],
      ['type=certificate.deleted', 'type', /must be one of certificate\.created/],
      ['county=atlantis', 'county', /unknown county slug "atlantis"/],
      ['limit=501', 'limit', /^must be an integer from 1 to 500$/],
      ['offset=10', 'offset', /unknown parameter/],
    ];
    for (const [query, parameter, message] of cases) {
      const res = await get(`/api/v1/events?${query}`);
      expect(res.statusCode, query).toBe(400);
      const { error } = res.json() as { error: { code: string; details: { issues: { parameter: string; message: string }[] } } };
      expect(error.code).toBe('bad_request');
      expect(error.details.issues[0]!.parameter, query).toBe(parameter);
      expect(error.details.issues[0]!.message, query).toMatch(message);
    }
  });

  it('gives the same body through the list_events MCP tool, and costs one credit like any read', async () => {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const client: Client = await connectMcp(base, auth);
    try {
      const args = { type: ['certificate.redeemed'], county: 'alachua', limit: 4, after: (await stored()).at(2)! };
      const rest = await page(`/api/v1/events?type=certificate.redeemed&county=alachua&limit=4&after=${args.after}`);
      const result = await client.callTool({ name: 'list_events', arguments: args });
      expect(result.isError, texts(result)[0]).toBeFalsy();
      const body = result.structuredContent as Page;
      expect(body).toEqual({ ...rest, meta: { ...rest.meta, request_id: body.meta.request_id } });
      expect(texts(result)[0]).toBe(`Events 1-4 of ${rest.pagination.total}. More: call again with after ${rest.pagination.next_after}.`);
      const bad = await client.callTool({ name: 'list_events', arguments: { after: 'evt_x' } });
      expect(errorBody(bad).error.details?.issues?.[0]?.parameter).toBe('after');
    } finally {
      await client.close();
    }
    const used = async () => ((await get('/api/v1/account/usage')).json() as { data: { events_count: number } }).data.events_count;
    const before = await used();
    await page('/api/v1/events?limit=1');
    expect(await used()).toBe(before + 1);
    expect((await get('/api/v1/events?after=nope')).statusCode).toBe(400);
    expect(await used()).toBe(before + 1);
  });

  it('answers 410 cursor_expired for a cursor older than the events kept, and 200 from the one just before them', async () => {
    const all = await stored();
    // The first ten were recorded long ago and pruned.
    const cut = Number(all[9]!.slice(4));
    await t.runtime.sql.run("UPDATE events SET created_at = '2020-01-01T00:00:00.000Z' WHERE id <= ?", [cut]);
    expect((await pruneOldEvents(t.runtime.sql, t.config.EVENTS_RETENTION_DAYS)).events).toBe(10);
    const expired = await get(`/api/v1/events?after=${all[3]}`);
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({
      error: {
        code: 'cursor_expired',
        message: expect.stringMatching(/older than the events kept \(90 days\)/),
        details: { parameter: 'after', oldest_event: all[10], retention_days: 90 },
      },
    });
    // The client that had seen up to the last pruned event has missed nothing.
    expect((await page(`/api/v1/events?after=${all[9]}&limit=1`)).data[0]!.id).toBe(all[10]);
    // Without after, the feed starts at the oldest event kept.
    expect((await page('/api/v1/events?limit=1')).data[0]!.id).toBe(all[10]);
  });
});
