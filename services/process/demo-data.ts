import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { countCertificates } from '../../indexer/certificates/bookkeeping.ts';
import { deriveHolders } from '../../indexer/holders/derive-holders.ts';
import { markIngested } from '../control/ingest/freshness.ts';
import { upsertSource } from '../control/ingest/sources.ts';
import { aliasName } from '../domain/datasets.ts';
import { enqueueFiles } from './ingest-runner.ts';
import { manifestJobs, manifestParcelJobs } from './manifest-jobs.ts';
import type { Runtime } from './runtime.ts';

const DEMO_MANIFEST = fileURLToPath(new URL('../../fixtures/demo/manifest.json', import.meta.url));

/** The demo data set (fixtures/demo), loaded by `npm start` into empty indices only. */
export async function loadDemoIfEmpty(runtime: Runtime): Promise<void> {
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
 * The demo's parcel files (one per county: centroids, values, use codes, homesteads), into an
 * empty parcels index only. After the certificates: each file's load joins its rows onto the
 * county's certificates already searchable (the join works in either order; this one shows the
 * update in place). Apart from loadDemoIfEmpty so a stack whose certificates were loaded before
 * parcels existed gets them on its next start.
 */
export async function loadDemoParcelsIfEmpty(runtime: Runtime): Promise<void> {
  const { opensearch, config } = runtime;
  if (!existsSync(DEMO_MANIFEST)) throw new Error(`demo data missing: ${DEMO_MANIFEST}`);
  const { jobs, rows } = manifestParcelJobs(DEMO_MANIFEST);
  if (jobs.length === 0) return;
  const parcels = await opensearch.count({ index: aliasName(config.INDEX_PREFIX, 'parcels') });
  if (parcels.body.count > 0) return;
  runtime.logger.info({ files: jobs.length, rows }, 'loading demo parcels into an empty parcels index');
  const outcomes = await enqueueFiles(runtime, jobs, { wait: true, expectedRows: rows, progressLabel: 'demo parcels' });
  const failed = outcomes.filter((o) => o.status !== 'succeeded');
  if (failed.length > 0) throw new Error(`demo parcels: ${failed.length} file(s) failed, first: ${failed[0]?.file}: ${failed[0]?.error}`);
}

/**
 * The demo's holders, derived from its certificates: every row's holder_id answered 404 until an
 * operator ran `taxcert holders derive`. Only into an empty holders index, as the demo data itself,
 * so a stack whose holders were loaded or derived on purpose keeps them.
 */
export async function deriveHoldersIfEmpty(runtime: Runtime): Promise<void> {
  const { opensearch, config } = runtime;
  if ((await countCertificates(opensearch, config.INDEX_PREFIX)) === 0) return;
  const holders = await opensearch.count({ index: aliasName(config.INDEX_PREFIX, 'holders') });
  if (holders.body.count > 0) return;
  const at = new Date();
  const result = await deriveHolders({
    opensearch,
    prefix: config.INDEX_PREFIX,
    replicas: config.OPENSEARCH_REPLICAS,
    registry: runtime.registry,
    now: () => at,
  });
  await markIngested(runtime.sql, 'holders', at);
  runtime.logger.info({ holders: result.holders }, 'demo holders derived from the certificates');
}
