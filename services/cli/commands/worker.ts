import type { Command } from 'commander';
import { envWith, loadConfig } from '../../config.ts';
import { runWorker } from '../../process/run-worker.ts';
import { CliError } from '../output.ts';

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
      // The flags override WORKER_CONCURRENCY and WEBHOOK_CONCURRENCY; the environment itself is read in config.ts only.
      const config = loadConfig(
        envWith({
          ...(opts.concurrency ? { WORKER_CONCURRENCY: opts.concurrency } : {}),
          ...(opts.webhookConcurrency ? { WEBHOOK_CONCURRENCY: opts.webhookConcurrency } : {}),
        }),
      );
      await runWorker(config, { lockMs });
    });
}
