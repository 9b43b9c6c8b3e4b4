/** The certificate sale row of spec 2.3 is the domain's (services/domain/sale-row.ts): one definition. */
import { SALE_COLUMNS, SaleRow } from '../../../domain/sale-row.ts';
import { listResponse } from '../../envelope.ts';

export { SALE_COLUMNS, SaleRow };

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const CertificateSaleList = listResponse(SaleRow);
