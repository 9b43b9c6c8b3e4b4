import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { countCertificates } from '../../../indexer/certificates/bookkeeping.ts';
import { deriveHolders } from '../../../indexer/holders/derive-holders.ts';
import { ensureIndices } from '../../../indexer/indices/ensure.ts';
import { startFeedSchedule } from '../../../indexer/events/schedule.ts';
import { startWebhookWorker } from '../../../indexer/webhooks/worker.ts';
import { startIngestWorker } from '../../../indexer/worker.ts';
import { loadApiServer } from '../api-server.ts';
import { type Config, loadConfig } from '../../config.ts';
import { ensureDemoKey } from '../../control/billing/demo-key.ts';
import { ensureDemoSignIn } from '../../control/accounts/demo-sign-in.ts';
import { markIngested } from '../../control/ingest/freshness.ts';
import { upsertSource } from '../../control/ingest/sources.ts';
import { aliasName } from '../../domain/datasets.ts';
import { openRuntime, requireRedis, type Runtime } from '../../runtime.ts';
import { outboxLine } from '../console.ts';
import { enqueueFiles } from '../ingest-runner.ts';
import { manifestJobs } from '../manifest-jobs.ts';
import { announceDevelopment, bannerLines, isQuietConsole, requestLine } from '../console.ts';
import { ensureLocalOpenSearch } from '../local-opensearch.ts';
import { ensureLocalRedis } from '../local-redis.ts';
import { untilSignal } from '../signals.ts';
import { recordStack } from '../local-stack.ts';

const DEMO_MANIFEST = fileURLToPath(new URL('../../../fixtures/demo/manifest.json', import.meta.url));

/**
 * The one-command local stack behind `npm start`: Redis (started when none answers and
 * redis-server is installed), OpenSearch (when OPENSEARCH_URL is unset), migrations, the demo data on first start, then the
 * worker and the API. The API listens only after the demo data is searchable, so
 * the first 200 from /healthz means the data is there.
 */
export function startCommand(program: Command): void {
  program
    .command('start')
    .description('run the whole local stack (OpenSearch node, worker, API) with demo data')
    .option('--no-demo', 'do not load the demo data set into empty indices')
    .action(async (opts: { demo: boolean }) => {
      const config = loadConfig();
      announceDevelopment(config.NODE_ENV);
      // On a terminal (and no LOG_LEVEL): warnings only, one progress bar, the banner, one line per request.
      const quiet = isQuietConsole({ isTTY: process.stderr.isTTY === true, logLevelSet: config.LOG_LEVEL_SET, nodeEnv: config.NODE_ENV });
      // A local Redis when none answers and redis-server is installed, as for the engine below.
      const redis = await ensureLocalRedis(config);
      if (redis.started)
        process.stderr.write(`taxcert: Redis did not answer at ${config.REDIS_URL}; started redis-server (pid ${redis.pid}) for this stack, stopped with it\n`);
      let node: Awaited<ReturnType<typeof ensureLocalOpenSearch>> | null = null;
      try {
        await requireRedis(config);
        node = config.OPENSEARCH_LOCAL ? await ensureLocalOpenSearch(config) : null;
        await runStack(config, quiet, opts);
      } finally {
        await node?.stop();
        await redis.stop();
      }
    });
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
    const webhooks = startWebhookWorker(runtime, { concurrency: config.WEBHOOK_CONCURRENCY });
    try {
      if (opts.demo) {
        await loadDemoIfEmpty(runtime);
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
      await Promise.all([worker.close(), webhooks.close(), schedule.close()]);
    }
  } finally {
    stack?.remove();
    await runtime?.close();
  }
}

/** The demo key goes to the terminal only (never through the logger), with a first request to copy. */

async function loadDemoIfEmpty(runtime: Runtime): Promise<void> {
  if ((await countCertificates(runtime.opensearch, runtime.config.INDEX_PREFIX)) > 0) return;
  if (!existsSync(DEMO_MANIFEST)) throw new Error(`demo data missing: ${DEMO_MANIFEST}`);
  const { jobs, sources, rows } = manifestJobs(DEMO_MANIFEST);
  for (const source of sources) await upsertSource(runtime.sql, runtime.registry, source);
  runtime.logger.info({ files: jobs.length, rows }, 'loading demo data into empty indices');
  const outcomes = await enqueueFiles(runtime, jobs, { wait: true, expectedRows: rows, progressLabel: 'demo data' });
  const failed = outcomes.filter((o) => o.status !== 'succeeded');
  if (failed.length > 0) throw new Error(`demo data: ${failed.length} file(s) failed, first: ${failed[0]?.file}: ${failed[0]?.error}`);
}

/**
 * The demo's holders, derived from its certificates: every row's holder_id answered 404 until an
 * operator ran `taxcert holders derive`. Only into an empty holders index, as the demo data itself,
 * so a stack whose holders were loaded or derived on purpose keeps them.
 */
async function deriveHoldersIfEmpty(runtime: Runtime): Promise<void> {
  const { opensearch, config } = runtime;
  if ((await countCertificates(opensearch, config.INDEX_PREFIX)) === 0) return;
  const holders = await opensearch.count({ index: aliasName(config.INDEX_PREFIX, 'holders') });
  if (holders.body.count > 0) return;
  const at = new Date();
  const result = await deriveHolders({ opensearch, prefix: config.INDEX_PREFIX, replicas: config.OPENSEARCH_REPLICAS, registry: runtime.registry, now: () => at });
  await markIngested(runtime.sql, 'holders', at);
  runtime.logger.info({ holders: result.holders }, 'demo holders derived from the certificates');
}
