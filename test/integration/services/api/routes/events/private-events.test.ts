// @module-tag postgres
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventList } from '../../../../../../services/api/routes/events/row.ts';
import { appendEvents, type EventInput, publicEventId } from '../../../../../../services/control/feed/events.ts';
import { createSavedSearch, type SavedSearch } from '../../../../../../services/control/feed/saved-searches.ts';
import { type AccessTestApp, bearer, openAccessTestApp } from '../../../../../helpers/access.ts';
import { connectMcp } from '../../../../../helpers/mcp.ts';

/**
 * A saved search's events are its owner's alone: GET /api/v1/events and the list_events tool
 * answer each client the public events and its own private ones, never another client's, with
 * totals that count only those and a next_after a poller can pass back whatever lies between.
 * Events are appended directly (the ingest that records them is tested on its own).
 */

interface Page {
  data: { id: string; type: string; data: { saved_search?: { id: string } } }[];
  pagination: { limit: number; offset: number; total: number; has_more: boolean; next_after: string | null };
  meta: { request_id: string };
}

let t: AccessTestApp;
let a: { clientId: string; key: string };
let b: { clientId: string; key: string };
let c: { clientId: string; key: string };
/** Public ids in the order appended, by who may read them. */
let ids: { pub1: string; a1: string; b1: string; pub2: string; a2: string; pub3: string; b2: string };
let searches: { a1: SavedSearch; a2: SavedSearch; b: SavedSearch };

const loadObject = { county_slug: 'alachua', county_name: 'Alachua', tax_year: 2024, count: 12 };
const publicLoad = (): EventInput => ({ type: 'certificates.loaded', countySlug: 'alachua', data: { object: loadObject, previous: {} } });
const privateLoad = (search: SavedSearch): EventInput => ({
  type: 'saved_search.matches_loaded',
  countySlug: 'alachua',
  data: { saved_search: { id: search.id, name: search.name }, object: { ...loadObject, count: 3 }, previous: {} },
  owner: { clientId: search.clientId, savedSearchId: search.id },
});

beforeAll(async () => {
  t = await openAccessTestApp(import.meta.url);
  const made = async () => {
    const m = await t.client('enterprise');
    return { clientId: m.client.id, key: m.key };
  };
  [a, b, c] = [await made(), await made(), await made()];
  const search = (clientId: string, name: string) =>
    createSavedSearch(t.runtime.sql, { clientId, name, params: { county: ['alachua'] }, limit: 10 });
  searches = { a1: await search(a.clientId, 'a one'), a2: await search(a.clientId, 'a two'), b: await search(b.clientId, 'b') };
  // Others' private events between and after the public ones: the feed skips them, its cursor may not stop short of them.
  const seqs = await appendEvents(t.runtime.sql, [
    publicLoad(),
    privateLoad(searches.a1),
    privateLoad(searches.b),
    publicLoad(),
    privateLoad(searches.a2),
    publicLoad(),
    privateLoad(searches.b),
  ]);
  const [pub1, a1, b1, pub2, a2, pub3, b2] = seqs.map(publicEventId) as [string, string, string, string, string, string, string];
  ids = { pub1, a1, b1, pub2, a2, pub3, b2 };
});
afterAll(() => t?.close());

const page = async (key: string, query: string): Promise<Page> => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/events?${query}`, headers: bearer(key) });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Page;
  expect(EventList.safeParse(body).success, res.body.slice(0, 300)).toBe(true);
  return body;
};

/** Follows next_after until has_more is false; every page's total and cursor as it went. */
async function walk(key: string, query: string) {
  const seen: string[] = [];
  const pages: Page['pagination'][] = [];
  let after: string | null = null;
  for (;;) {
    const p = await page(key, `${query}${after ? `&after=${after}` : ''}`);
    seen.push(...p.data.map((e) => e.id));
    pages.push(p.pagination);
    after = p.pagination.next_after;
    if (!p.pagination.has_more) return { seen, pages };
  }
}

describe('private events in GET /api/v1/events', () => {
  it("answers the owner its own saved searches' events among the public ones, with totals and cursors of those alone", async () => {
    const { seen, pages } = await walk(a.key, 'limit=2');
    expect(seen).toEqual([ids.pub1, ids.a1, ids.pub2, ids.a2, ids.pub3]);
    expect(pages).toEqual([
      { limit: 2, offset: 0, total: 5, has_more: true, next_after: ids.a1 },
      { limit: 2, offset: 0, total: 3, has_more: true, next_after: ids.a2 },
      // Past B's last event: nothing A may read lies before it.
      { limit: 2, offset: 0, total: 1, has_more: false, next_after: ids.b2 },
    ]);
    const polled = await page(a.key, `after=${ids.b2}`);
    expect(polled.data).toEqual([]);
    expect(polled.pagination).toMatchObject({ total: 0, has_more: false, next_after: ids.b2 });
    const own = await page(a.key, 'type=saved_search.matches_loaded');
    expect(own.data.map((e) => [e.id, e.data.saved_search?.id])).toEqual([
      [ids.a1, searches.a1.id],
      [ids.a2, searches.a2.id],
    ]);
    expect(own.pagination.total).toBe(2);
  });

  it("never shows a client another's events, in the page, the total or a type filter", async () => {
    const { seen, pages } = await walk(b.key, 'limit=2');
    expect(seen).toEqual([ids.pub1, ids.b1, ids.pub2, ids.pub3, ids.b2]);
    expect(pages.map((p) => p.total)).toEqual([5, 3, 1]);
    expect(pages.map((p) => p.next_after)).toEqual([ids.b1, ids.pub3, ids.b2]);
    // A cursor on another's event is a cursor like any: the next page starts after it.
    expect((await page(b.key, `after=${ids.a1}&limit=1`)).data.map((e) => e.id)).toEqual([ids.b1]);

    const none = await walk(c.key, 'limit=2');
    expect(none.seen).toEqual([ids.pub1, ids.pub2, ids.pub3]);
    expect(none.pages.map((p) => p.total)).toEqual([3, 1]);
    expect(none.pages.at(-1)!.next_after).toBe(ids.b2);
    const filtered = await page(c.key, 'type=saved_search.matches_loaded,saved_search.match_added');
    expect(filtered.data).toEqual([]);
    expect(filtered.pagination).toEqual({ limit: 100, offset: 0, total: 0, has_more: false, next_after: ids.b2 });
  });

  it('answers the list_events tool the same for each client', async () => {
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    for (const [who, expected] of [
      [a, [ids.pub1, ids.a1, ids.pub2, ids.a2, ids.pub3]],
      [b, [ids.pub1, ids.b1, ids.pub2, ids.pub3, ids.b2]],
    ] as const) {
      const client: Client = await connectMcp(base, bearer(who.key));
      try {
        const rest = await page(who.key, 'limit=3');
        const result = await client.callTool({ name: 'list_events', arguments: { limit: 3 } });
        expect(result.isError).toBeFalsy();
        const body = result.structuredContent as Page;
        expect(body).toEqual({ ...rest, meta: { ...rest.meta, request_id: body.meta.request_id } });
        expect(body.data.map((e) => e.id)).toEqual(expected.slice(0, 3));
        expect(body.pagination.total).toBe(expected.length);
        const typed = await client.callTool({ name: 'list_events', arguments: { type: ['saved_search.matches_loaded'] } });
        expect((typed.structuredContent as Page).data.map((e) => e.id)).toEqual(
          expected.filter((id) => ![ids.pub1, ids.pub2, ids.pub3].includes(id)),
        );
      } finally {
        await client.close();
      }
    }
  });
});
