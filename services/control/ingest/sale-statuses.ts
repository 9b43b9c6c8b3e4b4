import type { SaleStatus } from '../../domain/records.ts';
import type { Sql } from '../db/sql.ts';

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

export async function getSaleSeen(sql: Sql, saleId: string): Promise<SaleSeen | null> {
  const row = await sql.get<Row>('SELECT sale_id, county_slug, tax_year, status FROM sale_statuses WHERE sale_id = ?', [saleId]);
  return row ? { saleId: row.sale_id, countySlug: row.county_slug, taxYear: row.tax_year, status: row.status } : null;
}

/**
 * A first load of a county and tax year announces its sale, before pass 2 writes anything:
 * the ingest that then writes the sale records certificate_sale.created, even when that is a
 * retry or a later job. A sale the feed already knows is left as it is.
 */
export async function announceSale(sql: Sql, sale: Omit<SaleSeen, 'status'>): Promise<void> {
  await sql.run('INSERT INTO sale_statuses (sale_id, county_slug, tax_year) VALUES (?, ?, ?) ON CONFLICT (sale_id) DO NOTHING', [
    sale.saleId,
    sale.countySlug,
    sale.taxYear,
  ]);
}

/** Records the status the feed has now told (or takes as known, for a sale older than the feed). */
export async function setSaleSeen(sql: Sql, sale: SaleSeen & { status: SaleStatus }): Promise<void> {
  await sql.run(
    `
    INSERT INTO sale_statuses (sale_id, county_slug, tax_year, status) VALUES (?, ?, ?, ?)
    ON CONFLICT (sale_id) DO UPDATE SET status = excluded.status, updated_at = now_iso()`,
    [sale.saleId, sale.countySlug, sale.taxYear, sale.status],
  );
}
