/**
 * The one sale mapper lives in the domain (services/domain/sale-row.ts): the ingest and
 * the sale-status job render the sales of the change feed's events with it, so an event's
 * sale is exactly what this route answers.
 */
export { mapSaleRow, SALE_SOURCE, type SaleDocument } from '../../../domain/sale-row.ts';
