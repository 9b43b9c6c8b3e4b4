/** The certificate sale row of spec 2.3 is the domain's (services/domain/sale-row.ts): one definition. */
export { SALE_COLUMNS, SaleRow } from '../../../domain/sale-row.ts';
