import { ROUTE_SNAPSHOTS } from '../api/routes/bulk/route-snapshots.ts';
import { ensureIndices } from '../../indexer/indices/ensure.ts';
import { startFeedSchedule } from '../../indexer/events/schedule.ts';
import { startWebhookWorker } from '../../indexer/webhooks/worker.ts';
import { startIngestWorker } from '../../indexer/worker.ts';
import { rebuildAfterIngests, startBulkRebuilds } from '../../indexer/bulk/rebuild-worker.ts';
import type { Config } from '../config.ts';
import { ensureDemoKey } from '../control/billing/demo-key.ts';
import { ensureDemoSignIn } from '../control/accounts/demo-sign-in.ts';
import { loadApiServer } from './api-server.ts';
import { announceDevelopment, bannerLines, isQuietConsole, outboxLine, requestLine } from './console.ts';
import { deriveHoldersIfEmpty, loadDemoIfEmpty, loadDemoParcelsIfEmpty } from './demo-data.ts';
import { ensureLocalOpenSearch } from './local-opensearch.ts';
import { ensureLocalRedis } from './local-redis.ts';
import { openRuntime, requireRedis, type Runtime } from './runtime.ts';
import { untilSignal } from './signals.ts';
import { recordStack } from './stack-record.ts';

/**
 * The one-command local stack behind `npm start`: Redis (started when none answers and
 * redis-server is installed), OpenSearch (when OPENSEARCH_URL is unset), migrations, the demo data on first start, then the
 * worker and the API. The API listens only after the demo data is searchable, so
 * the first 200 from /healthz means the data is there.
 */
export async function runLocalStack(config: Config, opts: { demo: boolean }): Promise<void> {
  announceDevelopment(config.NODE_ENV);
  // On a terminal (and no LOG_LEVEL): warnings only, one progress bar, the banner, one line per request.
  const quiet = isQuietConsole({ isTTY: process.stderr.isTTY === true, logLevelSet: config.LOG_LEVEL_SET, nodeEnv: config.NODE_ENV });
  // A local Redis when none answers and redis-server is installed, as for the engine below.
  const redis = await ensureLocalRedis(config);
  if (redis.started)
    process.stderr.write(
      `taxcert: Redis did not answer at ${config.REDIS_URL}; started redis-server (pid ${redis.pid}) for this stack, stopped with it\n`,
    );
  let node: Awaited<ReturnType<typeof ensureLocalOpenSearch>> | null = null;
  try {
    await requireRedis(config);
    node = config.OPENSEARCH_LOCAL ? await ensureLocalOpenSearch(config) : null;
    await runStack(config, quiet, opts);
  } finally {
    await node?.stop();
    await redis.stop();
  }
}

/** The stack itself once Redis and the engine answer: runtime, worker, demo data, API, until a signal. */
async function runStack(config: Config, quiet: boolean, opts: { demo: boolean }): Promise<void> {
  const { startServer, buildSite } = await loadApiServer();
  let runtime: Runtime | null = null;
  let stack: ReturnType<typeof recordStack> | null = null;
  try {
    runtime = await openRuntime(quiet ? { ...config, LOG_LEVEL: 'warn' } : config, { name: 'taxcert' });
    await ensureIndices(runtime.opensearch, config.INDEX_PREFIX, config.OPENSEARCH_REPLICAS, config.OPENSEARCH_SHARDS);
    stack = recordStack(config);
    const worker = startIngestWorker(runtime, { concurrency: config.WORKER_CONCURRENCY });
    // The change feed's daily work: sales whose status changed with the date, and pruning old events.
    const schedule = await startFeedSchedule(runtime);
    // The bulk files of a county and tax year an ingest changed, rebuilt once it has been quiet a moment.
    const bulk = startBulkRebuilds(runtime, { debounceMs: config.BULK_REBUILD_DEBOUNCE_MS, builders: ROUTE_SNAPSHOTS });
    rebuildAfterIngests(worker.worker, bulk, runtime.logger);
    const webhooks = startWebhookWorker(runtime, { concurrency: config.WEBHOOK_CONCURRENCY });
    try {
      if (opts.demo) {
        await loadDemoIfEmpty(runtime);
        await loadDemoParcelsIfEmpty(runtime);
        await deriveHoldersIfEmpty(runtime);
      }
      const demo = await ensureDemoKey(runtime.sql, config);
      const signIn = await ensureDemoSignIn(runtime.sql, config);
      const { app, url } = await startServer(
        {
          ...runtime,
          ...(quiet ? { requestLine: (r) => process.stderr.write(`${requestLine({ ...r, at: new Date() })}\n`) } : {}),
          // No SMTP_URL: the account page's mail goes to the outbox folder, and its link to this terminal.
          onOutbox: (mail, file) => process.stderr.write(`${outboxLine(mail, file)}\n`),
        },
        buildSite,
      );
      // Listening for Ctrl-C / SIGTERM before the banner says the stack is ready: a supervisor (or a
      // test) that stops the stack the moment it reads the banner must find the handler in place.
      const stopped = untilSignal();
      process.stderr.write(`${bannerLines(url, demo.key, signIn).join('\n')}\n`);
      const signal = await stopped;
      runtime.logger.info({ signal }, 'stopping');
      await app.close();
    } finally {
      await Promise.all([worker.close(), webhooks.close(), schedule.close(), bulk.close()]);
    }
  } finally {
    stack?.remove();
    await runtime?.close();
  }
}
