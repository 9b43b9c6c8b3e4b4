import type { Command } from 'commander';
import { describeIndices } from '../../../indexer/indices/describe.ts';
import { createIngestQueue, redisConnection } from '../../../indexer/queue.ts';
import { loadConfig } from '../../config.ts';
import { getDatasetState } from '../../control/ingest/freshness.ts';
import { controlName } from '../../domain/datasets.ts';
import { opensearchNodes } from '../../engine/client.ts';
import { withoutPassword } from '../../logger.ts';
import { openRuntime, requireRedis } from '../../process/runtime.ts';
import { describeFailedJob, type FailedJob, renderFailedJobs } from '../failed-jobs.ts';
import { wantsJson } from '../json-flag.ts';
import { createOutput } from '../output.ts';

/** Failed jobs status shows; the count is always there, and `taxcert jobs list` shows the rest. */
const FAILED_SHOWN = 10;

export function statusCommand(program: Command): void {
  program
    .command('status')
    .description('per dataset: alias, physical index, documents and last ingest; queue depth and failed jobs')
    .action(async (_opts, command: Command) => {
      const config = loadConfig();
      await requireRedis(config);
      const runtime = await openRuntime(config, { name: 'status' });
      const connection = redisConnection(config);
      const queue = createIngestQueue(config, connection);
      try {
        const indices = await describeIndices(runtime.opensearch, config.INDEX_PREFIX);
        const datasets = [];
        for (const d of indices)
          datasets.push({ ...d, lastIngestedAt: (await getDatasetState(runtime.sql, controlName(d.dataset))).lastIngestedAt });
        const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed');
        const failedJobs = (await queue.getFailed(0, FAILED_SHOWN - 1)).map(describeFailedJob);
        const status = {
          prefix: config.INDEX_PREFIX,
          opensearch: opensearchNodes(config.OPENSEARCH_URL).map(withoutPassword).join(','),
          datasets,
          queue: {
            depth: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
            active: counts.active ?? 0,
            failed: counts.failed ?? 0,
            completed: counts.completed ?? 0,
            paused: await queue.isPaused(),
            workers: await queue.getWorkersCount(),
          },
          failedJobs,
        };
        createOutput(wantsJson(command)).result(status, render);
      } finally {
        await queue.close();
        connection.disconnect();
        await runtime.close();
      }
    });
}

function render(s: {
  prefix: string;
  datasets: { dataset: string; alias: string; index: string | null; documents: number | null; lastIngestedAt: string | null }[];
  queue: { depth: number; active: number; failed: number; completed: number; paused: boolean; workers: number };
  failedJobs: FailedJob[];
}): string {
  const rows = s.datasets.map(
    (d) =>
      `${d.dataset.padEnd(16)} ${d.alias.padEnd(30)} ${(d.index ?? '(none)').padEnd(56)} ${String(d.documents ?? '-').padStart(9)}  ${d.lastIngestedAt ?? 'never'}`,
  );
  const q = s.queue;
  return [
    `${'dataset'.padEnd(16)} ${'alias'.padEnd(30)} ${'physical index'.padEnd(56)} ${'documents'.padStart(9)}  last ingest`,
    ...rows,
    '',
    `queue: ${q.depth} waiting, ${q.active} active, ${q.failed} failed, ${q.completed} completed${q.paused ? ' (paused)' : ''}; ${q.workers} worker(s) listening`,
    ...renderFailedJobs(s.failedJobs, q.failed, 'taxcert jobs list'),
  ].join('\n');
}
