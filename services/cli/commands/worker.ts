import type { Command } from 'commander';
import { ensureIndices } from '../../../indexer/indices/ensure.ts';
import { startFeedSchedule } from '../../../indexer/events/schedule.ts';
import { startIngestWorker } from '../../../indexer/worker.ts';
import { envWith, loadConfig } from '../../config.ts';
import { openRuntime, requireRedis } from '../../runtime.ts';
import { CliError } from '../output.ts';
import { untilSignal } from '../signals.ts';

export function workerCommand(program: Command): void {
  program
    .command('worker')
    .description('run the indexer worker: takes ingest jobs from the queue and runs the change feed jobs until SIGTERM')
    .option('--concurrency <n>', 'files processed at once (overrides WORKER_CONCURRENCY)')
    .option('--lock-ms <ms>', 'job lock lifetime: after a worker dies, its files are taken over this long after', '60000')
    .action(async (opts: { concurrency?: string; lockMs: string }) => {
      const lockMs = Number(opts.lockMs);
      if (!Number.isInteger(lockMs) || lockMs < 1000) throw new CliError('--lock-ms must be an integer >= 1000', 2);
      // The flag overrides WORKER_CONCURRENCY; process.env itself is read in config.ts only.
      const config = loadConfig(envWith(opts.concurrency ? { WORKER_CONCURRENCY: opts.concurrency } : {}));
      await requireRedis(config);
      const runtime = openRuntime(config, { name: 'worker' });
      try {
        await ensureIndices(runtime.opensearch, config.INDEX_PREFIX, config.OPENSEARCH_REPLICAS);
        const handle = startIngestWorker(runtime, {
          concurrency: config.WORKER_CONCURRENCY,
          lockDuration: lockMs,
          stalledInterval: Math.max(500, Math.floor(lockMs / 2)),
        });
        // The change feed's sale-status check and pruning (issue 20).
        const schedule = await startFeedSchedule(runtime);
        runtime.logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker waiting for jobs');
        const signal = await untilSignal();
        // close() lets the files in hand finish; a hard kill instead is recovered by the queue's stalled-job retry.
        runtime.logger.info({ signal }, 'worker stopping after the files in hand');
        await handle.close();
        await schedule.close();
      } finally {
        await runtime.close();
      }
    });
}
