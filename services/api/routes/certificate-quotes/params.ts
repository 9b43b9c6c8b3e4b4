import { z } from 'zod';
import { calendarDate } from '../../params/common.ts';

/**
 * Parameters of the per-certificate answers (quote, timeline, deed estimate): the id in the
 * path and the day asked about. The same schemas are the MCP tools' input.
 */

export const QuotePath = z.strictObject({
  id: z.string().describe('Certificate id, form cert_<id> (anything else is a 404: no certificate has it).'),
});
export type QuotePath = z.infer<typeof QuotePath>;

export const AsOfParams = z.strictObject({
  date: calendarDate
    .optional()
    .describe('The day to answer for (YYYY-MM-DD), on or after the sale date; default today in Florida (America/New_York).'),
});
export type AsOfParams = z.infer<typeof AsOfParams>;

/** The MCP tools take the id and the day in one object. */
export const CertificateOnDateParams = z.strictObject({ ...QuotePath.shape, ...AsOfParams.shape });
export type CertificateOnDateParams = z.infer<typeof CertificateOnDateParams>;
