import { publicEventId, type StoredEvent } from '../../../control/feed/events.ts';
import type { EventRow } from './row.ts';

/**
 * A stored event -> its public row. The object and previous were rendered by the API's own
 * mappers when the event was recorded, and are returned as they were then: the feed tells
 * what changed at that moment, not what the row is today.
 */
export function mapEvent(event: StoredEvent): EventRow {
  return {
    id: publicEventId(event.seq),
    type: event.type,
    created_at: event.createdAt,
    county_slug: event.countySlug,
    data: event.data,
  } as EventRow;
}
