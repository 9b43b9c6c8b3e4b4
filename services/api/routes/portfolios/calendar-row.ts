import { z } from 'zod';
import { objectResponse } from '../../envelope.ts';

/** A portfolio's secret calendar address as its creation answers it: the only time the token is shown. */
export const CalendarAddressRow = z.object({
  portfolio_id: z.string().describe('The portfolio, pf_<id>.'),
  url: z.string().describe('The address calendar apps subscribe to (read-only, no API key). Shown this once.'),
  token: z.string().describe('The secret in the address, cal_ and 43 characters. Shown this once; kept only as its SHA-256.'),
  created_at: z.string().describe('When the address was made (ISO 8601).'),
});
export type CalendarAddressRow = z.infer<typeof CalendarAddressRow>;

export const CalendarAddressResponse = objectResponse(CalendarAddressRow);

export const CalendarText = z
  .string()
  .describe(
    'An iCalendar (RFC 5545) document: one all-day event per deadline still ahead (deed application opens, certificate expires) with alarms 7 days and 1 day before, UIDs stable between fetches.',
  );

export const CalendarTokenPath = z.strictObject({
  token: z.string().describe('The secret of a calendar address, cal_ and 43 characters (anything else, or a revoked one, is a 404).'),
});
