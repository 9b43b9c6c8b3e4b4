import { countEventsAfter, eventBounds, eventsAfter, parseEventId, publicEventId, settledEventSeq } from '../../../control/feed/events.ts';
import type { Sql } from '../../../control/db/sql.ts';
import type { Registry } from '../../../domain/registry.ts';
import type { ListResult } from '../../envelope.ts';
import { CursorExpiredError, InvalidParamsError } from '../../errors.ts';
import { assertCounties } from '../certificates/read.ts';
import { mapEvent } from './map-row.ts';
import type { EventsParams } from './params.ts';
import type { EventRow } from './row.ts';

export interface EventsDeps {
  sql: Sql;
  registry: Pick<Registry, 'county'>;
  config: { EVENTS_RETENTION_DAYS: number };
}

/**
 * GET /events: the events after the cursor, oldest first, with the total after it
 * and the cursor of the next call. The control plane only: answers while the engine is down.
 *
 * The viewer is the calling client (its id): it reads the public events and its own saved
 * searches' events, never another client's. Those are left out of the page and the total alike;
 * next_after may move past them (an id says nothing of what it held), so a poller never waits
 * on an event it cannot see.
 *
 * Read in one read-only snapshot (Sql.snapshot), so the page, the total and the bounds see no
 * writer in between, and the count of a long feed never holds or waits for the plane's write
 * lock: ingests, the worker and other requests' charges commit beside it. Ids are given in
 * commit order by one writer at a time, so every id up to the settled one is in the snapshot or
 * gone, and a client passing next_after back never misses an event and never sees one twice.
 */
export async function readEvents(deps: EventsDeps, viewer: string, params: EventsParams): Promise<ListResult<EventRow>> {
  assertCounties(deps.registry, 'county', params.county);
  const afterSeq = params.after === undefined ? 0 : parseEventId(params.after)!;
  return deps.sql.snapshot(async (tx) => {
    const { oldestSeq, lastSeq } = await eventBounds(tx);
    if (afterSeq > lastSeq)
      throw new InvalidParamsError([
        {
          parameter: 'after',
          message:
            lastSeq === 0
              ? `no event has the id ${params.after}: no event was recorded yet; call without after`
              : `no event has the id ${params.after}: the last event recorded is ${publicEventId(lastSeq)}`,
        },
      ]);
    // Ids are never reused and only pruning deletes: a gap between the cursor and the oldest
    // event kept is events this client never received.
    const firstKept = oldestSeq ?? lastSeq + 1;
    if (afterSeq > 0 && afterSeq < firstKept - 1)
      throw new CursorExpiredError(params.after!, deps.config.EVENTS_RETENTION_DAYS, oldestSeq === null ? null : publicEventId(oldestSeq));
    const filter = { viewer, afterSeq, types: params.type, counties: params.county };
    const rows = (await eventsAfter(tx, filter, params.limit)).map(mapEvent);
    const total = rows.length < params.limit ? rows.length : await countEventsAfter(tx, filter);
    const hasMore = rows.length < total;
    // Past the events this filter skips, but never past one a writer may still commit.
    const next = hasMore ? parseEventId(rows.at(-1)!.id)! : Math.max((await settledEventSeq(tx)) ?? 0, afterSeq);
    return { rows, limit: params.limit, offset: 0, total, nextAfter: next === 0 ? null : publicEventId(next) };
  });
}
