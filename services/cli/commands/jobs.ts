import type { Job } from 'bullmq';
import type { Command } from 'commander';
import { createIngestQueue, type IngestJobData, type IngestResult, redisConnection } from '../../../indexer/queue.ts';
import { loadConfig } from '../../config.ts';
import { requireRedis } from '../../process/runtime.ts';
import { describeFailedJob, renderFailedJobs } from '../failed-jobs.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput, USAGE_EXIT } from '../output.ts';

type IngestQueue = ReturnType<typeof createIngestQueue>;

/** `taxcert jobs list|retry|clean`: what an operator does with failed ingest jobs. */
export function jobsCommand(program: Command): void {
  const jobs = program.command('jobs').description('failed ingest jobs: list them, retry them, clean them away');

  // `taxcert jobs` alone lists, as `git stash` does: it printed the help and exited 2.
  jobs
    .command('list', { isDefault: true })
    .description('list failed jobs, newest first, one line each (the full reason with --json); the default')
    .option('--limit <n>', 'jobs to show', '50')
    .action(async (opts: { limit: string }, command: Command) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new CliError('--limit must be an integer 1-10000', USAGE_EXIT);
      await withQueue(async (queue) => {
        const total = await queue.getFailedCount();
        const list = (await queue.getFailed(0, limit - 1)).map(describeFailedJob);
        createOutput(wantsJson(command)).result({ total, jobs: list }, (r) =>
          r.total === 0
            ? 'no failed jobs'
            : [`${r.total} failed job(s)`, ...renderFailedJobs(r.jobs, r.total, `--limit ${r.total} shows all`)].join('\n'),
        );
      });
    });

  jobs
    .command('retry')
    .description('put failed jobs back in the queue (a worker runs them again): the given ids, or --all')
    .argument('[ids...]', 'job ids, as taxcert jobs list shows them')
    .option('--all', 'every failed job')
    .action(async (ids: string[], opts: { all?: boolean }, command: Command) => {
      await withQueue(async (queue) => {
        const chosen = await choose(queue, ids, opts.all === true);
        for (const job of chosen) await job.retry('failed');
        createOutput(wantsJson(command)).result({ retried: chosen.map((j) => j.id ?? '') }, (r) =>
          r.retried.length === 0 ? 'no failed jobs to retry' : `retried ${r.retried.length} job(s): ${r.retried.join(', ')}`,
        );
      });
    });

  jobs
    .command('clean')
    .description('remove failed jobs from the queue (their source rows keep lastError): the given ids, or --all')
    .argument('[ids...]', 'job ids, as taxcert jobs list shows them')
    .option('--all', 'every failed job')
    .action(async (ids: string[], opts: { all?: boolean }, command: Command) => {
      await withQueue(async (queue) => {
        const chosen = await choose(queue, ids, opts.all === true);
        for (const job of chosen) await job.remove();
        createOutput(wantsJson(command)).result({ removed: chosen.map((j) => j.id ?? '') }, (r) =>
          r.removed.length === 0 ? 'no failed jobs to clean' : `removed ${r.removed.length} failed job(s)`,
        );
      });
    });
}

async function withQueue(work: (queue: IngestQueue) => Promise<void>): Promise<void> {
  const config = loadConfig();
  await requireRedis(config);
  const connection = redisConnection(config);
  const queue = createIngestQueue(config, connection);
  try {
    await work(queue);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** The failed jobs named by id (each must exist and have failed), or all of them with --all. */
async function choose(queue: IngestQueue, ids: string[], all: boolean): Promise<Job<IngestJobData, IngestResult>[]> {
  if (all === ids.length > 0) throw new CliError('give job ids or --all (not both)', USAGE_EXIT);
  if (all) return queue.getFailed(0, -1);
  const chosen: Job<IngestJobData, IngestResult>[] = [];
  for (const id of ids) {
    const job = await queue.getJob(id);
    if (!job) throw new CliError(`no job ${id} (taxcert jobs list shows the failed ones)`, USAGE_EXIT);
    if (!(await job.isFailed())) throw new CliError(`job ${id} has not failed (it is ${await job.getState()})`, USAGE_EXIT);
    chosen.push(job);
  }
  return chosen;
}
