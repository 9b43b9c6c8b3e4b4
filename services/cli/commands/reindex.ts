import type { Command } from 'commander';
import { rebuildRollups } from '../../../indexer/rollups/rebuild.ts';
import { backfillHolderGroups } from '../../../indexer/certificates/backfill-holder-groups.ts';
import { joinParcelsOntoCertificates } from '../../../indexer/parcels/join-certificates.ts';
import { reindex } from '../../../indexer/indices/reindex.ts';
import { loadHolderAliases } from '../../domain/holder-groups.ts';
import { DATASETS, type Dataset } from '../../domain/datasets.ts';
import { ID_ORDER_PAINLESS } from '../../domain/ids.ts';
import { createIngestQueue, redisConnection } from '../../../indexer/queue.ts';
import { loadConfig } from '../../config.ts';
import { openRuntime, requireRedis } from '../../process/runtime.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';
import { createProgress } from '../../process/progress.ts';

export function reindexCommand(program: Command): void {
  program
    .command('reindex')
    .description('rebuild a dataset into a new physical index and move its alias atomically (searches never pause)')
    .requiredOption('--dataset <name>', `${DATASETS.join(', ')} or all`)
    .option('--keep-old', 'keep the previous physical index after the swap')
    .action(async (opts: { dataset: string; keepOld?: boolean }, command: Command) => {
      const datasets: Dataset[] =
        opts.dataset === 'all' ? [...DATASETS] : (DATASETS as readonly string[]).includes(opts.dataset) ? [opts.dataset as Dataset] : [];
      if (datasets.length === 0) throw new CliError(`--dataset must be one of ${DATASETS.join(', ')}, all; got "${opts.dataset}"`, 2);
      const config = loadConfig();
      await requireRedis(config);
      const runtime = await openRuntime(config, { name: 'reindex' });
      const connection = redisConnection(config);
      const queue = createIngestQueue(config, connection);
      const wasPaused = await queue.isPaused();
      try {
        // Ingest writes would land in the old index after the copy and be lost at the swap: hold them.
        await queue.pause();
        await waitForActiveJobs(queue);
        const results = [];
        for (const dataset of datasets) {
          let progress: ReturnType<typeof createProgress> | null = null;
          const result = await reindex(runtime.opensearch, config.INDEX_PREFIX, dataset, {
            keepOld: opts.keepOld === true,
            // OPENSEARCH_SHARDS set: the new index takes that many primaries (how a dataset moves to a cluster's layout).
            ...(config.OPENSEARCH_SHARDS ? { shards: config.OPENSEARCH_SHARDS } : {}),
            // Certificates copied from an index without holder groups (v4), id twins (v5) or parcel fields (v6)
            // get them before the swap: the parcel join writes only what differs, so a v7 copy costs a read.
            ...(dataset === 'certificates'
              ? {
                  script: ID_ORDER_PAINLESS,
                  afterCopy: async (index: string) => {
                    await backfillHolderGroups(runtime.opensearch, index, loadHolderAliases());
                    await joinParcelsOntoCertificates(runtime.opensearch, config.INDEX_PREFIX, { index });
                    // Made last, from the certificates as they will be served, before the aliases move.
                    await rebuildRollups(runtime.opensearch, index);
                  },
                }
              : {}),
            // The task learns its total only once it has started reading (0 before): no bar until then.
            onProgress: ({ created, total }) => {
              if (total <= 0) return;
              progress ??= createProgress(`reindex ${dataset}`, total, 'docs');
              progress.setTotal(total);
              progress.update(created);
            },
          });
          (progress as ReturnType<typeof createProgress> | null)?.finish();
          results.push({ dataset, ...result });
        }
        createOutput(wantsJson(command)).result({ reindexed: results }, (r) =>
          r.reindexed.map((x) => `${x.dataset}: ${x.from} -> ${x.to} (${x.documents} documents)`).join('\n'),
        );
      } finally {
        if (!wasPaused) await queue.resume();
        await queue.close();
        connection.disconnect();
        await runtime.close();
      }
    });
}

async function waitForActiveJobs(queue: ReturnType<typeof createIngestQueue>): Promise<void> {
  for (;;) {
    const active = await queue.getActiveCount();
    if (active === 0) return;
    process.stderr.write(`reindex: waiting for ${active} ingest job(s) in progress to finish\n`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}
