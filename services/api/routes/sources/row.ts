/** The source row of spec 2.7 is the control plane's own schema: one definition. */
import { SourceSchema } from '../../../control/ingest/sources.ts';
import { listResponse } from '../../envelope.ts';

export { SourceSchema as SourceRow };
export const SOURCE_COLUMNS = Object.keys(SourceSchema.shape);

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const SourceList = listResponse(SourceSchema);
