import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { createSecretBox } from '../../services/control/feed/webhook-secrets.ts';
import { addressPolicy } from '../../services/domain/webhook-address.ts';
import type { IndexerDeps } from '../deps.ts';
import { queuePrefix, redisConnection } from '../queue.ts';
import { createAttemptWriter } from './attempt-writer.ts';
import { createEndpointLoads } from './endpoint-load.ts';
import { type DeliverContext, type DeliverStep, deliverOne } from './deliver.ts';
import { type Dispatcher, startDispatcher } from './dispatcher.ts';
import { createEventBodies } from './payload.ts';
import { createWebhookQueue, DeliveryJobData, WEBHOOK_QUEUE } from './queue.ts';
import { createSender } from './send.ts';
import { createSigningSecrets } from './signing-secrets.ts';

export interface WebhookWorkerOptions {
  /** Deliveries sent at once (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** A killed worker's deliveries are taken over this long after (and sent again: at least once). */
  lockDuration?: number;
  stalledInterval?: number;
}

export interface WebhookWorkerHandle {
  worker: Worker<DeliveryJobData, DeliverStep>;
  close(): Promise<void>;
}

/**
 * The webhook side of the worker process: the dispatcher loop (events -> delivery rows -> jobs)
 * and the BullMQ worker that sends them, on the `webhooks` queue with its own concurrency.
 * Wiring and shutdown only; one delivery reads top to bottom in deliver.ts.
 */
export function startWebhookWorker(runtime: IndexerDeps, options: WebhookWorkerOptions): WebhookWorkerHandle {
  const { config, sql, logger } = runtime;
  const sender = createSender({ timeoutMs: config.WEBHOOK_TIMEOUT_MS, policy: addressPolicy(config.NODE_ENV) });
  const ctx: DeliverContext = {
    sql,
    secrets: createSigningSecrets(sql, createSecretBox(config.WEBHOOK_SECRET_KEY)),
    sender,
    bodies: createEventBodies(sql),
    writer: createAttemptWriter(sql, config.WEBHOOK_DISABLE_AFTER),
    logger,
    schedule: config.WEBHOOK_RETRY_SCHEDULE,
    loads: createEndpointLoads({
      slowLimit: config.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT,
      concurrency: options.concurrency,
      clientLimit: config.WEBHOOK_CLIENT_MAX_IN_FLIGHT,
    }),
  };

  const processor = async (job: Job<DeliveryJobData, DeliverStep>, token?: string): Promise<DeliverStep> => {
    const parsed = DeliveryJobData.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`invalid job data: ${parsed.error.issues[0]?.message}`);
    const step = await deliverOne(ctx, parsed.data);
    if (step.kind === 'done') return step;
    // Back to the queue until its time, spending none of the job's attempts (the schedule is ours).
    await job.moveToDelayed(step.at, token);
    throw new DelayedError();
  };

  // BullMQ blocks on the worker's connection: its own instance, quit by close().
  const workerConnection: Redis = redisConnection(config);
  const queueConnection: Redis = redisConnection(config);
  for (const c of [workerConnection, queueConnection])
    c.on('error', (err) => logger.warn({ err: err.message }, 'webhook redis connection error'));
  const worker = new Worker<DeliveryJobData, DeliverStep>(WEBHOOK_QUEUE, processor, {
    connection: workerConnection,
    prefix: queuePrefix(config),
    concurrency: options.concurrency,
    // Longer than any one request (WEBHOOK_TIMEOUT_MS); renewed while a request runs.
    lockDuration: options.lockDuration ?? Math.max(30_000, config.WEBHOOK_TIMEOUT_MS * 3),
    ...(options.stalledInterval ? { stalledInterval: options.stalledInterval } : {}),
    // A delivery's job is small and never the reason a worker dies; let it be taken over often.
    maxStalledCount: 10,
  });
  worker.on('error', (err) => logger.error({ err }, 'webhook worker error'));
  worker.on('failed', (job, err) => logger.warn({ jobId: job?.id, err: err.message }, 'webhook job failed'));

  const queue = createWebhookQueue(config, queueConnection);
  const dispatcher: Dispatcher = startDispatcher({ sql, queue, logger, pollMs: config.WEBHOOK_POLL_MS });

  return {
    worker,
    async close() {
      await dispatcher.stop();
      // Lets the requests in hand finish (each bounded by WEBHOOK_TIMEOUT_MS) and write their outcome.
      await worker.close();
      sender.close();
      await queue.close();
      workerConnection.disconnect();
      queueConnection.disconnect();
    },
  };
}
