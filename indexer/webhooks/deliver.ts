import type { Sql } from '../../services/control/db/sql.ts';
import { publicEventId } from '../../services/control/feed/events.ts';
import { type AttemptOutcome, deliveryState, failWithoutAttempt } from '../../services/control/feed/webhook-deliveries.ts';
import { endpointTarget } from '../../services/control/feed/webhook-endpoints.ts';
import type { Logger } from '../../services/logger.ts';
import type { AttemptWriter } from './attempt-writer.ts';
import type { EndpointLoads } from './endpoint-load.ts';
import type { EventBodies } from './payload.ts';
import type { DeliveryJobData } from './queue.ts';
import { retryDelay } from './retry-schedule.ts';
import type { Sender, SendResult } from './send.ts';
import type { SigningSecrets } from './signing-secrets.ts';
import { signDelivery } from './sign.ts';

/**
 * One delivery attempt, top to bottom: read the row, check it is still
 * this job's and due, check the endpoint, sign, POST, write the outcome, and say whether the job
 * ends or comes back later. A 2xx is delivered; a 410 disables the endpoint; anything else is
 * tried again after the schedule's next wait, until the schedule runs out.
 */

export interface DeliverContext {
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  secrets: SigningSecrets;
  sender: Sender;
  bodies: EventBodies;
  writer: AttemptWriter;
  logger: Logger;
  schedule: readonly number[];
  /** Requests open per endpoint and per client in this process (WEBHOOK_ENDPOINT_MAX_IN_FLIGHT, WEBHOOK_CLIENT_MAX_IN_FLIGHT). */
  loads: EndpointLoads;
  random?: () => number;
}

/** done: the job ends. later: the job goes back to the queue until `at` (epoch ms), spending no attempt. */
export type DeliverStep =
  | { kind: 'done'; outcome: 'delivered' | 'failed' | 'stale' | 'undeliverable' }
  | { kind: 'later'; at: number; outcome: 'retry' | 'not_due' | 'busy' };

/** A job that comes up more than this early waits for its time (a worker died after writing a retry but before moving the job). */
const EARLY_SLACK_MS = 250;

export async function deliverOne(ctx: DeliverContext, job: DeliveryJobData): Promise<DeliverStep> {
  const { sql } = ctx;
  const random = ctx.random ?? Math.random;
  const state = await deliveryState(sql, job.delivery);
  // Replayed since (a newer generation has its own job), already settled, or deleted with its endpoint.
  if (!state || state.generation !== job.generation || state.status !== 'pending') return { kind: 'done', outcome: 'stale' };
  const due = state.nextAttemptAt === null ? 0 : Date.parse(state.nextAttemptAt);
  if (due > Date.now() + EARLY_SLACK_MS) return { kind: 'later', at: due, outcome: 'not_due' };

  const endpoint = await endpointTarget(sql, state.endpointId);
  if (!endpoint) return { kind: 'done', outcome: 'stale' };
  if (endpoint.status !== 'enabled') {
    await failWithoutAttempt(sql, state.id, state.generation, `endpoint disabled (${endpoint.disabledReason}); replay after enabling it`);
    return { kind: 'done', outcome: 'undeliverable' };
  }
  const body = await ctx.bodies.get(state.eventId);
  if (body === null) {
    await failWithoutAttempt(sql, state.id, state.generation, 'event no longer kept (pruned after the retention period)');
    return { kind: 'done', outcome: 'undeliverable' };
  }
  // At its endpoint's or its client's share of the slots: back to the queue, spending no attempt.
  const slot = ctx.loads.enter(state.endpointId, endpoint.clientId);
  if (!slot) return { kind: 'later', at: Date.now() + ctx.loads.deferral(state.endpointId, endpoint.clientId, random()), outcome: 'busy' };

  const attempt = state.attempts + 1;
  let sent: SendResult;
  try {
    sent = await sign(ctx, state.endpointId, state.eventId, body).then((headers) => ctx.sender.send(endpoint.url, body, headers));
  } catch (err) {
    // The secret does not open (WEBHOOK_SECRET_KEY changed): an attempt that failed before sending.
    sent = { startedAt: new Date().toISOString(), durationMs: 0, httpStatus: null, error: (err as Error).message, responseBody: null };
  }
  slot.leave(sent.durationMs);

  const ok = sent.httpStatus !== null && sent.httpStatus >= 200 && sent.httpStatus < 300;
  const gone = sent.httpStatus === 410;
  const wait = ok || gone ? null : retryDelay(ctx.schedule, attempt, random());
  const retryAt = wait === null ? null : Date.parse(sent.startedAt) + sent.durationMs + wait;
  const outcome: AttemptOutcome = {
    ...sent,
    deliveryId: state.id,
    generation: state.generation,
    attempt,
    endpointId: state.endpointId,
    gone,
    next: ok ? { kind: 'delivered' } : retryAt === null ? { kind: 'failed' } : { kind: 'retry', at: new Date(retryAt).toISOString() },
  };
  const disabled = await ctx.writer.write(outcome);
  if (disabled.includes(state.endpointId))
    ctx.logger.warn(
      { endpoint: state.endpointId, reason: gone ? 'gone' : 'failing' },
      gone ? 'webhook endpoint answered 410: disabled' : 'webhook endpoint failing too long: disabled',
    );
  if (retryAt !== null) return { kind: 'later', at: retryAt, outcome: 'retry' };
  return { kind: 'done', outcome: ok ? 'delivered' : 'failed' };
}

async function sign(ctx: DeliverContext, endpointId: string, eventId: number, body: string) {
  return signDelivery(await ctx.secrets.get(endpointId), publicEventId(eventId), new Date(), body);
}
