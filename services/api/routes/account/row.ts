import { z } from 'zod';
import { objectResponse } from '../../envelope.ts';

/** The usage object of spec 2.10 / 4.12. */
export const Usage = z.object({
  events_count: z.number().int().describe('successful (charged) requests this calendar month (UTC), all keys of the bucket'),
  monthly_quota: z.number().int().describe("the bucket's monthly quota: the plan's credits (test keys: the reduced test quota)"),
  percent_used: z.number().describe('events_count / monthly_quota * 100, rounded half-up to 2 decimals; 0 for Enterprise'),
  reset_date: z.string().describe('UTC start of the next calendar month (ISO-8601)'),
  plan: z.string().describe('plan code, e.g. free_trial, developer, pro, enterprise'),
});
export type Usage = z.infer<typeof Usage>;

/** The answers the document names (routes/named-schemas.ts), for the routes to declare. */
export const UsageResponse = objectResponse(Usage);
