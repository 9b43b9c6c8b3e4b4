import type { Database } from 'better-sqlite3';
import type { SaleStatus } from '../domain/records.ts';

/**
 * The sale statuses the change feed has told about (migration 016), one row per annual
 * sale: what makes certificate_sale.created and certificate_sale.status_changed once per
 * sale and status, whichever of the ingest and the sale-status job sees a move first.
 */

export interface SaleSeen {
  saleId: string;
  countySlug: string;
  taxYear: number;
  /** null: announced by a first load whose ingest has not recorded the sale's creation yet. */
  status: SaleStatus | null;
}

interface Row {
  sale_id: string;
  county_slug: string;
  tax_year: number;
  status: SaleStatus | null;
}

export function getSaleSeen(db: Database, saleId: string): SaleSeen | null {
  const row = db.prepare<[string], Row>('SELECT sale_id, county_slug, tax_year, status FROM sale_statuses WHERE sale_id = ?').get(saleId);
  return row ? { saleId: row.sale_id, countySlug: row.county_slug, taxYear: row.tax_year, status: row.status } : null;
}

/**
 * A first load of a county and tax year announces its sale, before pass 2 writes anything:
 * the ingest that then writes the sale records certificate_sale.created, even when that is a
 * retry or a later job. A sale the feed already knows is left as it is.
 */
export function announceSale(db: Database, sale: Omit<SaleSeen, 'status'>): void {
  db.prepare('INSERT INTO sale_statuses (sale_id, county_slug, tax_year) VALUES (?, ?, ?) ON CONFLICT (sale_id) DO NOTHING').run(
    sale.saleId,
    sale.countySlug,
    sale.taxYear,
  );
}

/** Records the status the feed has now told (or takes as known, for a sale older than the feed). */
export function setSaleSeen(db: Database, sale: SaleSeen & { status: SaleStatus }): void {
  db.prepare(`
    INSERT INTO sale_statuses (sale_id, county_slug, tax_year, status) VALUES (?, ?, ?, ?)
    ON CONFLICT (sale_id) DO UPDATE SET status = excluded.status, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`).run(
    sale.saleId,
    sale.countySlug,
    sale.taxYear,
    sale.status,
  );
}
