/** The county row of spec 2.6 is the control plane's own schema: one definition. */
import { z } from 'zod';
import { CountySchema } from '../../../control/ingest/counties.ts';
import { objectResponse } from '../../envelope.ts';

export { CountySchema as CountyRow };

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const CountyListResponse = objectResponse(z.array(CountySchema));
export const CountyResponse = objectResponse(CountySchema);
