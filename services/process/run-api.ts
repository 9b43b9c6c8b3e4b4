import type { Config } from '../config.ts';
import { loadApiServer } from './api-server.ts';
import { announceDevelopment } from './console.ts';
import { openRuntime } from './runtime.ts';
import { untilSignal } from './signals.ts';

/** `taxcert serve` until SIGTERM: the query API and the account pages, in production against the cluster. */
export async function runApi(config: Config): Promise<void> {
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
}
