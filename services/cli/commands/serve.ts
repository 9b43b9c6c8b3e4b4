import type { Command } from 'commander';
import { envWith, loadConfig } from '../../config.ts';
import { runApi } from '../../process/run-api.ts';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('run the query API (production: OPENSEARCH_URL and REDIS_URL point at the cluster)')
    .option('--port <port>', 'listen port (overrides PORT)')
    .action(async (opts: { port?: string }) => {
      // The flag overrides PORT; the environment itself is read in config.ts only.
      await runApi(loadConfig(envWith(opts.port ? { PORT: opts.port } : {})));
    });
}
