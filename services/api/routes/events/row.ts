import { z } from 'zod';
import { CountySchema } from '../../../control/ingest/counties.ts';
import { CertificateRow } from '../../../domain/certificate-row.ts';
import { type EventObjectKind, eventTypesOf } from '../../../domain/event-types.ts';
import { SaleRow } from '../../../domain/sale-row.ts';
import { MetaSchema, PaginationSchema } from '../../envelope.ts';

/**
 * One event of the change feed, by type: data.object is the row exactly as the API
 * renders it (the same mapper), data.previous the public fields that changed, with their old
 * values ({} for a creation). One schema per kind of object, joined on type, so the OpenAPI
 * document and the MCP tool's output say which object each type carries.
 */

const id = z
  .string()
  .describe('Event id, evt_<n>: increasing in the order changes became visible; the cursor of GET /api/v1/events?after=.');
const createdAt = z.string().describe('When the event was recorded (ISO-8601 UTC), once the change was searchable.');
const county = z.string().describe('County slug of the changed object.');
const nothingBefore = z.object({}).describe('Empty: a creation has no previous values.');

/** The type property of the events whose object is of this kind, from the one table of types. */
const typeOf = <K extends EventObjectKind>(kind: K) => z.literal(eventTypesOf(kind));

/** An event of one kind of object: the envelope every event shares, what its types mean, its data. */
function eventOf<K extends EventObjectKind, D extends z.ZodType>(kind: K, types: string, data: D) {
  return z.object({ id, type: typeOf(kind).describe(types), created_at: createdAt, county_slug: county, data });
}

/** A certificate's changed public fields, as a private event repeats its public event's. */
const certificateChanges = CertificateRow.partial().describe(
  'Each public field that changed, with its value before the change; {} for a new certificate.',
);

export const CertificateEvent = eventOf(
  'certificate',
  'certificate.created: new to a county and tax year already loaded; redeemed, tax_deed_applied, lands_available, cancelled: the status moved there; status_changed: any other status move; updated: other public fields changed.',
  z.object({
    object: CertificateRow,
    previous: CertificateRow.partial().describe(
      'Each public field that changed, with its value before the change; {} for certificate.created.',
    ),
  }),
);

export const CertificatesLoadedObject = z.object({
  county_slug: z.string().describe('County slug.'),
  county_name: z.string().describe('County display name.'),
  tax_year: z.number().int().describe('Tax year loaded.'),
  count: z.number().int().describe('Certificates of this county and tax year searchable once the load finished.'),
});

export const CertificatesLoadedEvent = eventOf(
  'load',
  'The first load of a county and tax year: one event for the whole load instead of one per certificate.',
  z.object({ object: CertificatesLoadedObject, previous: nothingBefore }),
);

export const CertificateSaleEvent = eventOf(
  'sale',
  "created: the county and tax year's first certificates were loaded; status_changed: scheduled -> in_progress -> completed, recorded on the day it happens in Florida.",
  z.object({
    object: SaleRow,
    previous: SaleRow.partial().describe('status_changed: the status told before; {} for created.'),
  }),
);

export const CountyEvent = eventOf(
  'county',
  'The county moved between directory_only, vendor_tracked and certificate_level.',
  z.object({
    object: CountySchema,
    previous: CountySchema.partial().describe('Each field the same update changed (coverageStatus always), with its old value.'),
  }),
);

const savedSearch = z
  .object({
    id: z.string().describe('Saved search id, ss_<id>.'),
    name: z.string().describe('Its name when the event was recorded.'),
  })
  .describe('The saved search whose matches moved: events of a saved search are seen only by the client that owns it.');

export const SavedSearchMatchEvent = eventOf(
  'saved_search_match',
  "match_added: the certificate now matches the saved search and did not before (new, or changed into it); match_removed: it matched before and no longer does; match_updated: it matches before and after and a public field changed. Private: only the saved search's owner sees it.",
  z.object({
    saved_search: savedSearch,
    object: CertificateRow,
    previous: certificateChanges,
  }),
);

export const SavedSearchMatchesLoadedEvent = eventOf(
  'saved_search_load',
  "The first load of a county and tax year gave the saved search matches: one event with their count, not one per certificate. Private: only the saved search's owner sees it.",
  z.object({
    saved_search: savedSearch,
    object: CertificatesLoadedObject.extend({
      count: z.number().int().describe('Certificates of this county and tax year that match the saved search once the load finished.'),
    }),
    previous: nothingBefore,
  }),
);

const portfolio = z
  .object({
    id: z.string().describe('Portfolio id, pf_<id>.'),
    name: z.string().describe('Its name when the event was recorded.'),
  })
  .describe("The portfolio the certificate is in: a portfolio's events are seen only by the client that owns it.");
const position = z.object({ id: z.string().describe('Position id, pos_<id>.') });

export const PORTFOLIO_DEADLINE_KINDS = ['deed_application_opens', 'expires'] as const;

export const PortfolioDeadlineEvent = eventOf(
  'portfolio_deadline',
  "A deadline of a position's outstanding certificate is near, on Florida's calendar day: deed_application_opens on the day a tax deed application becomes possible, expires 90, 30 and 7 days before the certificate expires. Each once per position, deadline and horizon. Private: only the portfolio's owner sees it.",
  z.object({
    portfolio,
    position,
    certificate: CertificateRow.describe('The certificate as GET /certificates/{id} rendered it when the alert was recorded.'),
    kind: z.enum(PORTFOLIO_DEADLINE_KINDS).describe('Which deadline.'),
    date: z.string().describe('The deadline, YYYY-MM-DD: the first day an application is allowed, or the day the certificate expires.'),
    days_left: z
      .number()
      .int()
      .describe("Days from Florida's day of the alert to date: 0 on the day; below 0 for an opening told late after a missed day."),
  }),
);

export const PortfolioPositionEvent = eventOf(
  'portfolio_position',
  "An ingest changed a certificate of the portfolio: one of its positions, or one of the holder group it follows (before or after the change). change is the public event's type; object and previous are the public event's. Private: only the portfolio's owner sees it.",
  z.object({
    portfolio,
    position: position
      .nullable()
      .describe(
        "The position holding the certificate; null when the certificate is the portfolio's through its followed holder group only.",
      ),
    change: z.enum(eventTypesOf('certificate')).describe('The type of the public event of the change.'),
    object: CertificateRow,
    previous: certificateChanges,
  }),
);

/** One schema per kind of object: a kind added to the table of types without one here fails to compile. */
const EVENT_BY_KIND = {
  certificate: CertificateEvent,
  load: CertificatesLoadedEvent,
  sale: CertificateSaleEvent,
  county: CountyEvent,
  saved_search_match: SavedSearchMatchEvent,
  saved_search_load: SavedSearchMatchesLoadedEvent,
  portfolio_deadline: PortfolioDeadlineEvent,
  portfolio_position: PortfolioPositionEvent,
} satisfies Record<EventObjectKind, z.ZodObject>;

export const EventRow = z.discriminatedUnion('type', [
  EVENT_BY_KIND.certificate,
  EVENT_BY_KIND.load,
  EVENT_BY_KIND.sale,
  EVENT_BY_KIND.county,
  EVENT_BY_KIND.saved_search_match,
  EVENT_BY_KIND.saved_search_load,
  EVENT_BY_KIND.portfolio_deadline,
  EVENT_BY_KIND.portfolio_position,
]);
export type EventRow = z.infer<typeof EventRow>;

/** The list envelope's pagination plus the cursor to pass back (additive to spec 2.1). */
export const EventPagination = PaginationSchema.extend({
  offset: z.literal(0).describe('Always 0: the feed pages by cursor (after), not by offset.'),
  total: z
    .number()
    .int()
    .describe(
      "Matching events after the cursor that you can read (the public ones and your own saved searches' and portfolios'), this page included.",
    ),
  next_after: z
    .string()
    .nullable()
    .describe(
      'The after= of the next call: the last event of this page while has_more, else the last event recorded so far (matching or not, yours or another client’s), so a filtered poll skips what it does not want; null while no event was ever recorded.',
    ),
});

export const EventList = z.object({ data: z.array(EventRow), pagination: EventPagination, meta: MetaSchema });
