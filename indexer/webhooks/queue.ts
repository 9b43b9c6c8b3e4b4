import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { Config } from '../../services/config.ts';
import type { OutboxRow } from '../../services/control/feed/webhook-deliveries.ts';
import { queuePrefix } from '../queue.ts';

/**
 * The webhook delivery queue: its own queue beside `ingest`, under the same INDEX_PREFIX keys,
 * so its jobs (many, small, mostly HTTP waits) never queue behind files and get their own
 * concurrency. A job only names a delivery row; the row in SQLite is the truth.
 */
export const WEBHOOK_QUEUE = 'webhooks';

export const DeliveryJobData = z.object({
  /** webhook_deliveries.id */
  delivery: z.number().int().positive(),
  /** The row's generation when the job was queued: a replay makes older jobs stale. */
  generation: z.number().int().min(0),
});
export type DeliveryJobData = z.infer<typeof DeliveryJobData>;

/**
 * Named for the endpoint, the event and the generation, so queuing the same delivery twice
 * (a worker that crashed between queuing and marking, two workers draining one outbox) is one
 * job while it exists; and a job added again after it ended finds its row no longer pending.
 */
export function deliveryJobId(row: Pick<OutboxRow, 'endpointId' | 'eventId' | 'generation'>): string {
  return `${row.endpointId}.evt_${row.eventId}.g${row.generation}`;
}

/**
 * A replay's job (generation > 0) waits behind every first delivery: BullMQ takes jobs without
 * a priority before prioritized ones. A client replaying a backlog, however large, never puts
 * another client's (or its own) new events behind it; the replays go out as the queue drains.
 */
export const REPLAY_PRIORITY = 1;

/** The options a delivery's job is queued with: its id, and the replays' lower priority. */
export function deliveryJobOptions(row: Pick<OutboxRow, 'endpointId' | 'eventId' | 'generation'>): { jobId: string; priority?: number } {
  return row.generation > 0 ? { jobId: deliveryJobId(row), priority: REPLAY_PRIORITY } : { jobId: deliveryJobId(row) };
}

export function createWebhookQueue(config: Pick<Config, 'INDEX_PREFIX'>, connection: Redis): Queue<DeliveryJobData> {
  return new Queue<DeliveryJobData>(WEBHOOK_QUEUE, {
    connection,
    prefix: queuePrefix(config),
    defaultJobOptions: {
      // A receiver's failures are retried by the worker itself (the job is moved to delayed with
      // the schedule, which spends none of these). These cover a job that throws: SQLite busy
      // past its timeout, Redis gone for a moment.
      attempts: 5,
      backoff: { type: 'exponential', delay: 5000 },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600 },
    },
  });
}
