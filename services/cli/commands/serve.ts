import type { Command } from 'commander';
import { loadApiServer } from '../api-server.ts';
import { envWith, loadConfig } from '../../config.ts';
import { openRuntime } from '../../runtime.ts';
import { announceDevelopment } from '../console.ts';
import { untilSignal } from '../signals.ts';

export function serveCommand(program: Command): void {
  program
    .command('serve')
    .description('run the query API (production: OPENSEARCH_URL and REDIS_URL point at the cluster)')
    .option('--port <port>', 'listen port (overrides PORT)')
    .action(async (opts: { port?: string }) => {
      // The flag overrides PORT; process.env itself is read in config.ts only.
      const config = loadConfig(envWith(opts.port ? { PORT: opts.port } : {}));
      announceDevelopment(config.NODE_ENV);
      const { startServer, buildSite } = await loadApiServer();
      const runtime = await openRuntime(config, { name: 'api' });
      try {
        const { app, url } = await startServer(
          {
            ...runtime,
            // Without SMTP_URL (never in production) mail is kept in the outbox folder; the log says where, not the link.
            onOutbox: (_mail, file) => runtime.logger.info({ file }, 'mail written to the outbox (no SMTP_URL)'),
          },
          buildSite,
        );
        runtime.logger.info({ url, nodeEnv: config.NODE_ENV }, 'api listening');
        const signal = await untilSignal();
        runtime.logger.info({ signal }, 'api stopping');
        await app.close();
      } finally {
        await runtime.close();
      }
    });
}
