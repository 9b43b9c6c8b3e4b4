/** The source row of spec 2.7 is the control plane's own schema: one definition. */
import { SourceSchema } from '../../../control/ingest/sources.ts';

export { SourceSchema as SourceRow };
export const SOURCE_COLUMNS = Object.keys(SourceSchema.shape);
