import { z } from 'zod';
import { EVENT_TYPES, parseEventId } from '../../../control/feed/events.ts';
import { countySlug, limit, multi, oneWord } from '../../params/common.ts';

/** An event id as the feed gives it: evt_ and the number, the cursor a client stores. */
export const eventId = z
  .string()
  .refine((id) => parseEventId(id) !== null, 'must be an event id such as evt_42: the id of the last event you received')
  .register(oneWord, { noun: 'event id' });

/** GET /events: the change feed, oldest first after a cursor. */
export const EventsParams = z.strictObject({
  after: eventId
    .optional()
    .describe(
      'Only events after this one (its id, evt_<n>): store the last id you received, or pagination.next_after, and pass it back. Without it the feed starts at the oldest event kept. An id older than the retention is a 410 cursor_expired.',
    ),
  type: multi(z.enum(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`), EVENT_TYPES.length)
    .optional()
    .describe(`Event type(s): ${EVENT_TYPES.join(', ')}; repeat the parameter or separate with commas to match any of them.`),
  county: multi(countySlug)
    .optional()
    .describe('County slug(s), e.g. miami-dade; repeat the parameter or separate with commas; an unknown slug is a 400.'),
  limit: limit(100),
});
export type EventsParams = z.infer<typeof EventsParams>;
