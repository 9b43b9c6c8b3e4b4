import { appendEvents, type EventInput } from '../../services/control/feed/events.ts';
import type { Sql } from '../../services/control/db/sql.ts';
import { getSaleSeen, setSaleSeen } from '../../services/control/ingest/sale-statuses.ts';
import { floridaToday } from '../../services/domain/florida-today.ts';
import type { SaleRow } from '../../services/domain/sale-row.ts';
import { type SaleWatcher, saleChange } from './sale-change.ts';

/**
 * One sale's event, if any, recorded with the status told in one transaction, so two
 * watchers (an ingest and the job, or two workers) never tell one move twice. The row is
 * rendered inside the transaction, with the clock read there: of two transactions, the later
 * one judges the later day, so a slow job cannot tell a status older than one already told.
 */
export async function recordSale(
  sql: Sql,
  render: (today: string) => SaleRow,
  now: () => Date,
  by: SaleWatcher,
): Promise<EventInput | null> {
  return sql.transaction(async (tx) => {
    const row = render(floridaToday(now()));
    const seen = await getSaleSeen(tx, row.id);
    const { event, status } = saleChange(seen, row, by);
    if (event) await appendEvents(tx, [event]);
    if (status) await setSaleSeen(tx, { saleId: row.id, countySlug: row.county_slug, taxYear: row.tax_year, status });
    return event;
  });
}
