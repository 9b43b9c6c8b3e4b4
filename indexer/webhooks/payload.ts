import { allEventsAfter, publicEventId, type StoredEvent } from '../../services/control/feed/events.ts';
import type { Sql } from '../../services/control/db/sql.ts';

/**
 * The body of a delivery: the event exactly as the change feed shows it,
 * `{ id, type, created_at, county_slug, data: { object, previous } }`, as compact JSON. Its
 * `id` is also the webhook-id header, the same on every attempt and replay, so a receiver
 * de-duplicates on it.
 */
export function eventBody(event: StoredEvent): string {
  return JSON.stringify({
    id: publicEventId(event.seq),
    type: event.type,
    created_at: event.createdAt,
    county_slug: event.countySlug,
    data: event.data,
  });
}

export interface EventBodies {
  /** The body of event `seq`, or null when the event is gone (pruned). */
  get(seq: number): Promise<string | null>;
}

/**
 * Bodies read once per event and kept for the next endpoints of the same event: a fan-out to
 * twenty endpoints reads and serialises the event once, not twenty times. Deliveries come in
 * event order, so a miss reads the next READ_AHEAD events too, in one query. Bounded, oldest out.
 * Read by id whoever owns the event: fan-out already sent a private event only to its owner's
 * endpoints, and a body is only ever fetched for a delivery.
 */
const READ_AHEAD = 256;

export function createEventBodies(sql: Sql, capacity = 8192): EventBodies {
  const cache = new Map<number, string>();
  return {
    async get(seq) {
      const hit = cache.get(seq);
      if (hit !== undefined) return hit;
      const events = await allEventsAfter(sql, seq - 1, READ_AHEAD);
      if (events[0]?.seq !== seq) return null;
      for (const event of events) {
        if (!cache.has(event.seq)) cache.set(event.seq, eventBody(event));
        if (cache.size > capacity) cache.delete(cache.keys().next().value!);
      }
      return cache.get(seq) ?? null;
    },
  };
}
