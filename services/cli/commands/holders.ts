import type { Command } from 'commander';
import { deriveHolders } from '../../../indexer/holders/derive-holders.ts';
import { ensureIndices } from '../../../indexer/indices/ensure.ts';
import { loadConfig } from '../../config.ts';
import { markIngested } from '../../control/ingest/freshness.ts';
import { openRuntime } from '../../process/runtime.ts';
import { wantsJson } from '../json-flag.ts';
import { createOutput } from '../output.ts';

export function holdersCommand(program: Command): void {
  const holders = program.command('holders').description('the certificate-holder dataset (empty until derived or loaded)');
  holders
    .command('derive')
    .description('build holder records from the certificates index (certificate ingests never do this by themselves)')
    .action(async (_opts, command: Command) => {
      const config = loadConfig();
      const runtime = await openRuntime(config, { name: 'holders' });
      try {
        await ensureIndices(runtime.opensearch, config.INDEX_PREFIX, config.OPENSEARCH_REPLICAS, config.OPENSEARCH_SHARDS);
        const at = new Date();
        const result = await deriveHolders({
          opensearch: runtime.opensearch,
          prefix: config.INDEX_PREFIX,
          replicas: config.OPENSEARCH_REPLICAS,
          registry: runtime.registry,
          now: () => at,
        });
        await markIngested(runtime.sql, 'holders', at);
        createOutput(wantsJson(command)).result(result, (r) =>
          [
            `${r.holders} holders: ${r.created} new, ${r.updated} updated`,
            ...r.rejected.map((x) => `  rejected ${x.id}: ${x.reasons.join('; ')}`),
          ].join('\n'),
        );
        if (result.rejected.length > 0) process.exitCode = 1;
      } finally {
        await runtime.close();
      }
    });
}
