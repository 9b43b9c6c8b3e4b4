import { describe, expect, it } from 'vitest';
import { EventsParams } from '../../../../services/api/routes/events/params.ts';
import { EventRow } from '../../../../services/api/routes/events/row.ts';
import { EVENT_TYPES, eventTypesOf } from '../../../../services/domain/event-types.ts';

/**
 * The event types are one table in the domain; the API's row schema and params derive from
 * it. These checks fail if a type is added to the table without an object schema joined on
 * it, or if a list somewhere drifts from the table's order.
 */
describe('the event types', () => {
  it('are each carried by exactly one of the row schemas, in the order of the table', () => {
    const byRow = EventRow.options.flatMap((o) => [...o.shape.type.values]);
    expect([...byRow].sort()).toEqual([...EVENT_TYPES].sort());
    expect(new Set(byRow).size).toBe(EVENT_TYPES.length);
    expect([...EventRow.options[0].shape.type.values]).toEqual(eventTypesOf('certificate'));
  });

  it('group by the object they carry, keeping the table order', () => {
    expect(eventTypesOf('certificate')).toEqual([
      'certificate.created',
      'certificate.redeemed',
      'certificate.tax_deed_applied',
      'certificate.lands_available',
      'certificate.cancelled',
      'certificate.status_changed',
      'certificate.updated',
    ]);
    expect(eventTypesOf('load')).toEqual(['certificates.loaded']);
    expect(eventTypesOf('sale')).toEqual(['certificate_sale.created', 'certificate_sale.status_changed']);
    expect(eventTypesOf('county')).toEqual(['county.coverage_changed']);
  });

  it('are the values the feed accepts as type=', () => {
    expect(EventsParams.parse({ type: [...EVENT_TYPES] }).type).toEqual(EVENT_TYPES);
    expect(EventsParams.safeParse({ type: ['certificate.deleted'] }).success).toBe(false);
  });
});
