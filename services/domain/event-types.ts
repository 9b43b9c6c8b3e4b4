/**
 * The change feed's event types, defined once: each type with the kind of object its
 * data.object carries. The control plane stores, filters and matches endpoints on these
 * names; the API's event row joins one object schema per kind on them, so the OpenAPI
 * document, the MCP tool and the params' list of allowed values all come from this table.
 * The key order is the order every list shows (params' description, the account page's
 * check boxes, the OpenAPI enums).
 */
export const EVENT_OBJECTS = {
  'certificate.created': 'certificate',
  'certificates.loaded': 'load',
  'certificate.redeemed': 'certificate',
  'certificate.tax_deed_applied': 'certificate',
  'certificate.lands_available': 'certificate',
  'certificate.cancelled': 'certificate',
  'certificate.status_changed': 'certificate',
  'certificate.updated': 'certificate',
  'certificate_sale.created': 'sale',
  'certificate_sale.status_changed': 'sale',
  'county.coverage_changed': 'county',
  'saved_search.match_added': 'saved_search_match',
  'saved_search.match_removed': 'saved_search_match',
  'saved_search.match_updated': 'saved_search_match',
  'saved_search.matches_loaded': 'saved_search_load',
  'portfolio.deadline_approaching': 'portfolio_deadline',
  'portfolio.position_changed': 'portfolio_position',
} as const;

export type EventType = keyof typeof EVENT_OBJECTS;

/**
 * What an event's data.object is: a certificate row, a county and tax year's first load, a sale row, a county;
 * a saved search's events (private to the client that owns the search) carry a certificate row or a load's count;
 * a portfolio's (private to the client that owns the portfolio) a deadline of a position's certificate, or a change of it.
 */
export type EventObjectKind = (typeof EVENT_OBJECTS)[EventType];

/** The types whose data.object is of this kind. */
export type EventTypeOf<K extends EventObjectKind> = { [T in EventType]: (typeof EVENT_OBJECTS)[T] extends K ? T : never }[EventType];

export const EVENT_TYPES = Object.keys(EVENT_OBJECTS) as readonly EventType[];

/** The types carrying this kind of object, in the table's order. */
export function eventTypesOf<K extends EventObjectKind>(kind: K): readonly EventTypeOf<K>[] {
  return EVENT_TYPES.filter((type): type is EventTypeOf<K> => EVENT_OBJECTS[type] === kind);
}

/** The types only the owner of a saved search or a portfolio ever sees: in its feed, by its webhooks, over its MCP session. */
const PRIVATE_KINDS: ReadonlySet<EventObjectKind> = new Set([
  'saved_search_match',
  'saved_search_load',
  'portfolio_deadline',
  'portfolio_position',
]);
export const PRIVATE_EVENT_TYPES = EVENT_TYPES.filter((type) => PRIVATE_KINDS.has(EVENT_OBJECTS[type]));
