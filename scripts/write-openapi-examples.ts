/**
 * Re-records the 200-response examples of the OpenAPI document from the demo data set
 * (so a generated client's docs show real answers, not invented ones). Run it by hand after
 * regenerating fixtures/demo or changing an answer's shape, then review the diff:
 *
 *   npm run openapi:examples
 *
 * The demo manifest (and its sources) is loaded through the real queue and worker into a
 * throwaway INDEX_PREFIX on the running OpenSearch and Redis, exactly as `npm start` loads it;
 * every example is then asked of the real app (app.inject with an Enterprise key) and the
 * answers, less their meta, are written to services/api/openapi/examples.json, which
 * services/api/openapi/examples.ts imports. The prefix, its queue keys and the temporary
 * SQLite file are removed at the end, also when a request fails.
 *
 * Holders and lands available are not recorded: the demo set holds no files of either, so
 * their examples stay the ones written from fixtures/files/holders and lands-available.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../services/api/app.ts';
import { enqueueFiles } from '../services/process/ingest-runner.ts';
import { manifestJobs, manifestParcelJobs } from '../services/process/manifest-jobs.ts';
import { loadConfig } from '../services/config.ts';
import { createKey } from '../services/control/billing/api-keys.ts';
import { createClient } from '../services/control/billing/clients.ts';
import { migrate } from '../services/control/db/migrate.ts';
import { upsertSource } from '../services/control/ingest/sources.ts';
import { openRuntime } from '../services/process/runtime.ts';
import { dropScratch } from './lib/drop-scratch.ts';

const MANIFEST = fileURLToPath(new URL('../fixtures/demo/manifest.json', import.meta.url));
const OUT = fileURLToPath(new URL('../services/api/openapi/examples.json', import.meta.url));

/** The county-year the certificate examples come from: a large county, a year whose certificates are still outstanding. */
const COUNTY = 'broward';
const TAX_YEAR = 2023;
/**
 * The certificate list's county-year: old enough for deed applications (2-5% of certificates,
 * from April 1 of the sale year + 2), so the outstanding ones show both statuses.
 */
const LIST_TAX_YEAR = 2021;
/** The bid-rate example's scope: the largest county of the set, its latest sale. */
const BID_RATE_SCOPE = 'county=miami-dade&tax_year=2024';
/** The redemption examples: the largest county over every tax year, as of the day the demo set was generated. */
const REDEMPTION_SCOPE = 'county=miami-dade&as_of=2026-11-22';

const prefix = `openapi-examples-${randomBytes(3).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
const config = loadConfig({
  ...process.env,
  OPENSEARCH_URL: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200',
  DATABASE_PATH: join(dir, 'taxcert.db'),
  INDEX_PREFIX: prefix,
  LOG_LEVEL: 'warn',
  NODE_ENV: 'development',
});
const runtime = await openRuntime(config, { name: 'openapi-examples' });

interface Cert {
  id: string;
  parcel_id: string;
  status: string;
  tax_year: number;
  sale_date: string | null;
}

try {
  await migrate(runtime.sql);
  const { jobs, sources, rows } = manifestJobs(MANIFEST);
  for (const source of sources) await upsertSource(runtime.sql, runtime.registry, source);
  console.error(`ingesting ${rows} demo certificates into ${prefix}`);
  const outcomes = await enqueueFiles(runtime, jobs, { wait: true, expectedRows: rows, progressLabel: 'demo data' });
  // Then its parcel rolls, as npm start loads them: the map answers show real places.
  const parcels = manifestParcelJobs(MANIFEST);
  outcomes.push(...(await enqueueFiles(runtime, parcels.jobs, { wait: true, expectedRows: parcels.rows, progressLabel: 'demo parcels' })));
  const failed = outcomes.filter((o) => o.status !== 'succeeded');
  if (failed.length > 0) throw new Error(`${failed.length} demo file(s) failed, first: ${failed[0]?.file}: ${failed[0]?.error}`);

  const app = await buildApp(runtime);
  try {
    const client = await createClient(runtime.sql, { name: 'openapi examples', plan: 'enterprise' });
    const { raw } = await createKey(runtime.sql, {
      clientId: client.id,
      env: 'live',
      prefix: config.KEY_PREFIX,
      secret: config.KEY_HASH_SECRET,
    });
    const headers = { authorization: `Bearer ${raw}` };
    /** One real answer, its meta dropped (examples.ts gives each a fixed request id). */
    const get = async (url: string) => {
      const res = await app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      const { meta: _meta, ...body } = res.json();
      return body;
    };

    // The certificate every per-certificate example is about: a sold (outstanding) certificate
    // of COUNTY/TAX_YEAR, the largest face first (the one an investor would look at), whose deed
    // estimate on its first eligible day adds another outstanding certificate of the parcel, and
    // whose parcel shows a redeemed certificate too (the by-parcel example shows a history).
    // Its quote and timeline are asked in the November after the sale: interest has run for
    // months, and the 5% minimum is in play.
    const sold = (await get(`/certificates/search?county=${COUNTY}&tax_year=${TAX_YEAR}&status=sold&sort=face_desc&limit=200`))
      .data as Cert[];
    let chosen: { subject: Cert; quoteDate: string; timeline: Record<string, unknown>; deedEstimate: Record<string, unknown> } | undefined;
    for (const subject of sold) {
      const quoteDate = `${subject.sale_date!.slice(0, 4)}-11-16`;
      const timeline = await get(`/certificates/${subject.id}/timeline?date=${quoteDate}`);
      const deedDate = (timeline.data as { dates: { deed_application_earliest: string } }).dates.deed_application_earliest;
      const deedEstimate = await get(`/certificates/${subject.id}/deed-estimate?date=${deedDate}`);
      if ((deedEstimate.data as { other_certificates: unknown[] }).other_certificates.length === 0) continue;
      const parcel = await get(`/certificates/by-parcel?county=${COUNTY}&parcel_id=${encodeURIComponent(subject.parcel_id)}`);
      if ((parcel.data as Cert[]).some((c) => c.status === 'redeemed')) {
        chosen = { subject, quoteDate, timeline, deedEstimate };
        break;
      }
    }
    if (!chosen)
      throw new Error(`no sold ${COUNTY} ${TAX_YEAR} certificate has another outstanding and a redeemed certificate on its parcel`);
    const { subject, quoteDate, timeline, deedEstimate } = chosen;

    const recorded = {
      source: `fixtures/demo (${rows} certificates), recorded by scripts/write-openapi-examples.ts`,
      // The outstanding certificates of an older county-year, largest first, with the status counts.
      certificateList: await get(
        `/certificates/search?county=${COUNTY}&tax_year=${LIST_TAX_YEAR}&status=sold,tax_deed_applied&facets=status&sort=face_desc&limit=2`,
      ),
      // The same list as map features, each with its parcel's facts.
      certificateFeatures: await get(
        `/certificates/search?county=${COUNTY}&tax_year=${LIST_TAX_YEAR}&status=sold,tax_deed_applied&sort=face_desc&limit=2&format=geojson&expand=parcel`,
      ),
      // The county's map cells at zoom 8 (a county fits in a cell or two at that zoom).
      certificateGeoGrid: await get(`/certificates/geo-grid?county=${COUNTY}&tax_year=${LIST_TAX_YEAR}&status=sold&zoom=8`),
      certificate: await get(`/certificates/${subject.id}`),
      certificatesByParcel: await get(`/certificates/by-parcel?county=${COUNTY}&parcel_id=${encodeURIComponent(subject.parcel_id)}`),
      certificateCounts: await get(`/certificates/counts?county=${COUNTY}&tax_year=${TAX_YEAR}`),
      certificateFreshness: await get('/certificates/freshness'),
      certificateSaleList: await get(`/certificate-sales/search?county=${COUNTY}&limit=2`),
      countyList: await get('/counties'),
      county: await get(`/counties/${COUNTY}`),
      sourceList: await get('/sources?limit=2'),
      countySources: await get(`/sources/${COUNTY}?limit=2`),
      redemptionQuote: await get(`/certificates/${subject.id}/redemption?date=${quoteDate}`),
      certificateTimeline: timeline,
      deedEstimate,
      bidRates: await get(`/analytics/bid-rates?${BID_RATE_SCOPE}`),
      redemptionCurve: await get(`/analytics/redemption-curve?${REDEMPTION_SCOPE}`),
      expectedYield: await get(`/analytics/expected-yield?${REDEMPTION_SCOPE}&rates=0.25,5,8,12,18&target_yield=8`),
      // The two largest holder groups of the market.
      holderGroupList: await get('/analytics/holders?limit=2'),
      // Last: the usage of this run's key, every request above counted.
      usage: await get('/account/usage'),
    };
    // The directory lists all 67 counties; the example shows the first and the one the others are about.
    const counties = recorded.countyList.data as { countySlug: string }[];
    recorded.countyList = { data: [counties[0], counties.find((c) => c.countySlug === COUNTY)] };
    writeFileSync(OUT, `${JSON.stringify(recorded, null, 2)}\n`);
    console.error(`wrote ${OUT} (certificate ${subject.id}, quote on ${quoteDate})`);
  } finally {
    await app.close();
  }
} finally {
  const keys = await runtime.redis.keys(`${prefix}-rl:*`).catch(() => [] as string[]);
  if (keys.length > 0) await runtime.redis.del(...keys).catch(() => undefined);
  await dropScratch(runtime, config, prefix, dir);
  await runtime.close();
}
