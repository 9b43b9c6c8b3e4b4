/** The source row of spec 2.7 is the control plane's own schema: one definition. */
import { SourceSchema } from '../../../control/sources.ts';
import { listResponse } from '../../envelope.ts';

export { SourceSchema as SourceRow };
export const SOURCE_COLUMNS = Object.keys(SourceSchema.shape);

/** The answers the document names (services/api/openapi.ts), for the routes to declare. */
export const SourceList = listResponse(SourceSchema);
