import { z } from 'zod';

const CheckValue = z
  .enum(['ok', 'unavailable'])
  .describe('"ok", or "unavailable" when the dependency did not answer (the reason is logged, not served: it names hosts and ports)');

/** GET /healthz: the service and its three dependencies. */
export const HealthBody = z.object({
  status: z.enum(['ok', 'unavailable']),
  opensearch: CheckValue,
  redis: CheckValue,
  /** The control plane on SQLite (DATABASE_URL unset). */
  sqlite: CheckValue.optional(),
  /** The control plane on PostgreSQL (DATABASE_URL set). */
  postgres: CheckValue.optional(),
});
export type HealthBody = z.infer<typeof HealthBody>;
