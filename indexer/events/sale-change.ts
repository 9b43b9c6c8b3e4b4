import type { EventInput } from '../../services/control/feed/events.ts';
import type { SaleSeen } from '../../services/control/ingest/sale-statuses.ts';
import type { SaleStatus } from '../../services/domain/records.ts';
import type { SaleRow } from '../../services/domain/sale-row.ts';

/**
 * What the change feed says about a sale, pure: the row as the API renders it
 * today against what the feed last told (services/control/ingest/sale-statuses.ts).
 * - The ingest that writes a sale its first load announced records certificate_sale.created.
 * - A status other than the one told is certificate_sale.status_changed, previous.status the
 *   old one, seen first by the ingest or by the daily sale-status job: once either way.
 * - A sale older than the feed (no row) is taken as told, with no event: the feed cannot say
 *   when it was created or what it was.
 */

/** Who looks: an ingest that just wrote the sale, or the scheduled sale-status job. */
export type SaleWatcher = 'ingest' | 'schedule';

export interface SaleDecision {
  event: EventInput | null;
  /** The status to record as told; null: leave the row as it is. */
  status: SaleStatus | null;
}

export function saleChange(seen: Pick<SaleSeen, 'status'> | null, row: SaleRow, by: SaleWatcher): SaleDecision {
  const event = (type: EventInput['type'], previous: Partial<SaleRow>): EventInput => ({
    type,
    countySlug: row.county_slug,
    data: { object: row, previous },
  });
  if (!seen) return { event: null, status: row.status };
  // Announced, not yet told: only the ingest that wrote the sale tells (the job may still be
  // between writing the sale and recording it).
  if (seen.status === null)
    return by === 'ingest' ? { event: event('certificate_sale.created', {}), status: row.status } : { event: null, status: null };
  if (seen.status !== row.status) return { event: event('certificate_sale.status_changed', { status: seen.status }), status: row.status };
  return { event: null, status: null };
}
