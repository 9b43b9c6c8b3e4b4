import type { Sql } from '../../services/control/db/sql.ts';
import type { Client } from '@opensearch-project/opensearch';
import type { EventInput } from '../../services/control/feed/events.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { mapSaleRow, SALE_SOURCE, type SaleDocument } from '../../services/domain/sale-row.ts';
import { recordSale } from './record-sale.ts';

/**
 * The scheduled sale-status check: a sale's status is a function of Florida's
 * calendar day (services/domain/sale-status.ts), so it moves at midnight in Florida with no
 * ingest at all. The worker runs this every SALE_STATUS_EVERY_MS (events/schedule.ts): every
 * sale as the API renders it today, against the status the feed last told; a move is
 * certificate_sale.status_changed, once per sale and status however often this runs
 * (record-sale.ts). A few hundred sales (67 counties, a handful of years each): one page
 * read per 1,000.
 */

const PAGE = 1000;

export interface SaleStatusDeps {
  opensearch: Client;
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  prefix: string;
}

/** Records every sale status move since the last check; returns the events recorded. */
export async function recordSaleStatusChanges(deps: SaleStatusDeps, now: () => Date = () => new Date()): Promise<EventInput[]> {
  const recorded: EventInput[] = [];
  let after: (string | number)[] | undefined;
  for (;;) {
    const res = await deps.opensearch.search({
      index: aliasName(deps.prefix, 'sales'),
      body: {
        size: PAGE,
        _source: [...SALE_SOURCE],
        sort: [{ id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      },
    });
    const hits = res.body.hits.hits as unknown as { _source: SaleDocument; sort: (string | number)[] }[];
    for (const hit of hits) {
      const event = await recordSale(deps.sql, (today) => mapSaleRow(hit._source, today), now, 'schedule');
      if (event) recorded.push(event);
    }
    if (hits.length < PAGE) return recorded;
    after = hits.at(-1)!.sort;
  }
}
