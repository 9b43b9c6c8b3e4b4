import type { Client } from '@opensearch-project/opensearch';
import type { Sql } from '../control/db/sql.ts';
import { parseEventId } from '../control/feed/events.ts';
import { aliasName } from '../domain/datasets.ts';
import { saleId } from '../domain/ids.ts';
import { SALE_SOURCE, type SaleDocument, mapSaleRow } from '../domain/sale-row.ts';
import { getByIds } from '../engine/search.ts';
import { certificateDeltaPages, type DeltaRow } from './delta-events.ts';

/** Sales read back per mget: a day touches at most a few per county. */
const SALES_PER_READ = 500;

/**
 * The certificate-sales delta of one Florida day: one upsert line per sale (county and tax year)
 * that the day's public certificate events touched, carrying the newest of those events (its id,
 * type and time) and the sale as GET /certificate-sales/search renders it now (status as of
 * `today`). A sale is derived from its certificates and the feed keeps no sale row per
 * certificate change, so the row is the sale at build time: built right after the change (the
 * worker rebuilds the day's deltas once the ingest that made the events has derived the sale),
 * it is the sale after the day's last change. Lines are in feed order of their event; a sale the
 * index does not hold (none was derived) has no line.
 */
export async function saleDeltaLines(
  deps: { opensearch: Client; sql: Sql; prefix: string },
  day: string,
  today: string,
): Promise<DeltaRow[]> {
  const newest = new Map<string, DeltaRow>();
  for await (const page of certificateDeltaPages(deps.sql, day))
    for (const line of page) {
      const cert = line.row ?? {};
      // Pages come oldest first: the last line seen for a sale is its newest event.
      newest.set(saleId(String(cert.county_slug), Number(cert.tax_year)), line);
    }
  const ids = [...newest.keys()];
  const lines: DeltaRow[] = [];
  for (let i = 0; i < ids.length; i += SALES_PER_READ) {
    const chunk = ids.slice(i, i + SALES_PER_READ);
    const docs = await getByIds<SaleDocument>(deps.opensearch, aliasName(deps.prefix, 'sales'), chunk, SALE_SOURCE);
    docs.forEach((doc, j) => {
      const event = newest.get(chunk[j]!)!;
      if (doc)
        lines.push({
          op: 'upsert',
          id: doc.id,
          event_id: event.event_id,
          event_type: event.event_type,
          changed_at: event.changed_at,
          row: mapSaleRow(doc, today),
        });
    });
  }
  return lines.sort((a, b) => (parseEventId(a.event_id) ?? 0) - (parseEventId(b.event_id) ?? 0));
}
