/** The county row of spec 2.6 is the control plane's own schema: one definition. */
export { CountySchema as CountyRow } from '../../../control/ingest/counties.ts';
