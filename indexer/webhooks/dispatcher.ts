import type { Sql } from '../../services/control/db/sql.ts';
import type { Queue } from 'bullmq';
import { fanOut, markEnqueued, outbox, overdueDeliveries } from '../../services/control/feed/webhook-deliveries.ts';
import type { Logger } from '../../services/logger.ts';
import { type DeliveryJobData, deliveryJobId, deliveryJobOptions } from './queue.ts';

/**
 * The loop that turns events into delivery jobs, in the worker process, so a crash between any
 * two steps neither loses nor doubles a delivery:
 *   1. fan out: the events after the durable cursor become delivery rows, and the cursor moves
 *      past them, in one SQLite transaction (webhook-deliveries.ts fanOut);
 *   2. drain the outbox: rows not yet queued become jobs (addBulk, idempotent job ids), then are
 *      marked queued. A crash between the two adds the same job ids again: nothing doubles;
 *   3. now and then, sweep: a pending delivery long overdue whose job is gone (a Redis that lost
 *      its data) or failed is queued again.
 * It reads the events table whoever wrote to it (an ingest in another process, a test), so any
 * event appended there is delivered. Replays write rows into the outbox the same way.
 */

export interface DispatcherOptions {
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  queue: Queue<DeliveryJobData>;
  logger: Logger;
  /** Sleep between passes that found nothing to do. */
  pollMs: number;
  /** Events fanned out per transaction: small enough to keep the event loop responsive. */
  eventsPerPass?: number;
  /** Jobs waiting in Redis above which the outbox is left in SQLite for now (bounded Redis memory). */
  highWater?: number;
  /** How often to look for overdue deliveries, and how late one must be. */
  sweepEveryMs?: number;
  overdueAfterMs?: number;
}

export interface Dispatcher {
  /** Ends the loop after its current pass. */
  stop(): Promise<void>;
}

const OUTBOX_CHUNK = 1000;

export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const { sql, queue, logger } = options;
  const eventsPerPass = options.eventsPerPass ?? 500;
  const highWater = options.highWater ?? 5000;
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  const overdueAfterMs = options.overdueAfterMs ?? 5 * 60_000;
  let running = true;
  let wake: (() => void) | null = null;
  let lastSweep = Date.now();

  async function drainOutbox(): Promise<number> {
    let queued = 0;
    while (running) {
      const rows = await outbox(sql, OUTBOX_CHUNK);
      if (rows.length === 0) break;
      if ((await queue.getJobCountByTypes('wait', 'prioritized')) >= highWater) break;
      await queue.addBulk(
        rows.map((r) => ({ name: 'deliver', data: { delivery: r.id, generation: r.generation }, opts: deliveryJobOptions(r) })),
      );
      await markEnqueued(sql, rows);
      queued += rows.length;
      if (rows.length < OUTBOX_CHUNK) break;
    }
    return queued;
  }

  async function sweep(): Promise<void> {
    const overdue = await overdueDeliveries(sql, new Date(Date.now() - overdueAfterMs).toISOString(), 500);
    let requeued = 0;
    for (const row of overdue) {
      const id = deliveryJobId(row);
      const job = await queue.getJob(id);
      const state = job ? await job.getState() : 'missing';
      if (state === 'missing' || state === 'unknown') {
        await queue.add('deliver', { delivery: row.id, generation: row.generation }, deliveryJobOptions(row));
        requeued += 1;
      } else if (state === 'failed') {
        await job!.retry('failed');
        requeued += 1;
      } else if (state === 'completed') {
        await job!.remove();
        await queue.add('deliver', { delivery: row.id, generation: row.generation }, deliveryJobOptions(row));
        requeued += 1;
      }
    }
    if (requeued > 0) logger.warn({ requeued }, 'webhook deliveries overdue without a live job were queued again');
  }

  async function pass(): Promise<boolean> {
    const fan = await fanOut(sql, eventsPerPass);
    const queued = await drainOutbox();
    if (Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now();
      await sweep();
    }
    return fan.toEventId > fan.fromEventId || queued > 0;
  }

  const loop = (async () => {
    while (running) {
      let busy = false;
      try {
        busy = await pass();
      } catch (err) {
        // SQLite busy past its timeout, Redis away: the next pass starts from the same cursor and outbox.
        logger.warn({ err: (err as Error).message }, 'webhook dispatch pass failed; trying again');
      }
      if (!running) break;
      if (busy) await new Promise((r) => setImmediate(r));
      else
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      wake = null;
    }
  })();

  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
    },
  };
}
