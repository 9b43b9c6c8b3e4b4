import { z } from 'zod';

const CheckValue = z.string().describe('"ok", or why the dependency did not answer');

/** GET /healthz: the service and its three dependencies. */
export const HealthBody = z.object({
  status: z.enum(['ok', 'unavailable']),
  opensearch: CheckValue,
  redis: CheckValue,
  sqlite: CheckValue,
});
export type HealthBody = z.infer<typeof HealthBody>;
