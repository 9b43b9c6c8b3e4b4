import type { Command } from 'commander';
import { ensureIndices } from '../../../indexer/indices/ensure.ts';
import { startFeedSchedule } from '../../../indexer/events/schedule.ts';
import { startWebhookWorker } from '../../../indexer/webhooks/worker.ts';
import { startIngestWorker } from '../../../indexer/worker.ts';
import { envWith, loadConfig } from '../../config.ts';
import { openRuntime, requireRedis } from '../../runtime.ts';
import { CliError } from '../output.ts';
import { announceDevelopment } from '../console.ts';
import { untilSignal } from '../signals.ts';

export function workerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the worker until SIGTERM: ingest jobs, the change feed jobs, and webhook deliveries on their own queue')
    .option('--concurrency <n>', 'files processed at once (overrides WORKER_CONCURRENCY)')
    .option('--webhook-concurrency <n>', 'webhook deliveries sent at once (overrides WEBHOOK_CONCURRENCY)')
    .option('--lock-ms <ms>', 'job lock lifetime: after a worker dies, its files and deliveries are taken over this long after', '60000')
    .action(async (opts: { concurrency?: string; webhookConcurrency?: string; lockMs: string }) => {
      const lockMs = Number(opts.lockMs);
      if (!Number.isInteger(lockMs) || lockMs < 1000) throw new CliError('--lock-ms must be an integer >= 1000', 2);
      // The flags override WORKER_CONCURRENCY and WEBHOOK_CONCURRENCY; process.env itself is read in config.ts only.
      const config = loadConfig(
        envWith({
          ...(opts.concurrency ? { WORKER_CONCURRENCY: opts.concurrency } : {}),
          ...(opts.webhookConcurrency ? { WEBHOOK_CONCURRENCY: opts.webhookConcurrency } : {}),
        }),
      );
      announceDevelopment(config.NODE_ENV);
      await requireRedis(config);
      const runtime = await openRuntime(config, { name: 'worker' });
      try {
        await ensureIndices(runtime.opensearch, config.INDEX_PREFIX, config.OPENSEARCH_REPLICAS, config.OPENSEARCH_SHARDS);
        const handle = startIngestWorker(runtime, {
          concurrency: config.WORKER_CONCURRENCY,
          lockDuration: lockMs,
          stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
        });
        // The change feed's daily work: sales whose status changed with the date, and pruning old events.
        const schedule = await startFeedSchedule(runtime);
        const webhooks = startWebhookWorker(runtime, {
          concurrency: config.WEBHOOK_CONCURRENCY,
          lockDuration: lockMs,
          stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
        });
        runtime.logger.info(
          { concurrency: config.WORKER_CONCURRENCY, webhookConcurrency: config.WEBHOOK_CONCURRENCY, nodeEnv: config.NODE_ENV },
          'worker waiting for jobs',
        );
        const signal = await untilSignal();
        // close() lets the files and deliveries in hand finish; a hard kill instead is recovered by the queue's stalled-job retry.
        runtime.logger.info({ signal }, 'worker stopping after the files and deliveries in hand');
        await Promise.all([handle.close(), webhooks.close(), schedule.close()]);
      } finally {
        await runtime.close();
      }
    });
}
