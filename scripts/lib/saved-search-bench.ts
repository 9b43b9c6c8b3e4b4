import { aliasTargets } from '../../indexer/indices/ensure.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { countSavedSearchQueries } from '../../services/engine/saved-search-index.ts';
import type { GeneratedState } from '../../services/generator/generate-state.ts';
import type { Runtime } from '../../services/process/runtime.ts';
import { measureFreshness } from './freshness.ts';
import { ingestedLines, timeOperatorLoad, timeRawBulk, workerPhases } from './ingest-sides.ts';
import { compareMatchesLatency } from './matches-latency.ts';
import { memoryOf } from './proc-stats.ts';
import { percentile } from './percentile.ts';
import { type SavedSearchSpec, savedSearchMix } from './saved-search-mix.ts';
import { createSavedSearches } from './saved-search-setup.ts';
import type { StackProcess } from './stack-process.ts';

/**
 * The ingest benchmark's second half, with saved searches in place (--saved-searches N), on the
 * stack and the set of the first half:
 *
 * 1. The loaded certificates index goes (the percolator index stays), the stack starts again and
 *    makes an empty one, and N saved searches of a seeded mix (saved-search-mix.ts) are made
 *    through its API, spread over enterprise clients (500 a client).
 * 2. The same `taxcert ingest --manifest --wait`, timed as the first half timed it: every file is
 *    a first load again, so each search that can match it counts its matches
 *    (saved_search.matches_loaded). Then the same county updates as the first half's freshness,
 *    each done once its public and private events are recorded, and /matches against
 *    /certificates/search. The stack stops and the raw _bulk of the same documents is timed
 *    again, in the first half's order, so the second ratio is measured as the first was.
 *    Targets: the ratio with searches at least 0.9 of the one without; freshness p50 <= 2 s;
 *    /matches p50 within 10% of the search's.
 * 3. The worker's logged phases of the updates give the percolation's cost per changed
 *    certificate (timingsMs.percolate over the certificates each update changed).
 */

export interface SavedSearchBenchContext {
  runtime: Runtime;
  env: NodeJS.ProcessEnv;
  dir: string;
  n: number;
  count: number;
  seed: number;
  state: GeneratedState;
  manifest: string;
  /** The first half's exported documents, for the raw side. */
  ndjson: string;
  stackLog: string;
  asOf: string;
  freshness: { samples: number; rows: number };
  /** The first half's figures without saved searches. */
  baseline: { ratio: number; pipelineSeconds: number };
  /** Starts the stack as the first half did; resolves once its worker listens. */
  startStack(): Promise<StackProcess>;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** How the mix came out: how many searches name what. */
function describeMix(specs: readonly SavedSearchSpec[]) {
  const share = (f: (s: SavedSearchSpec) => boolean) => Math.round((specs.filter(f).length / specs.length) * 1000) / 10;
  const perCounty: Record<string, number> = {};
  for (const s of specs) for (const c of (s.params.county as string[] | undefined) ?? []) perCounty[c] = (perCounty[c] ?? 0) + 1;
  return {
    noCountyPct: share((s) => s.params.county === undefined),
    twoCountiesPct: share((s) => (s.params.county as string[] | undefined)?.length === 2),
    soldAndAdvertisedPct: share((s) => (s.params.status as string[]).length === 2),
    faceRangePct: share((s) => s.params.face_min !== undefined || s.params.face_max !== undefined),
    taxYearPct: share((s) => s.params.tax_year !== undefined),
    queryPct: share((s) => s.params.query !== undefined),
    holderPct: share((s) => s.params.holder !== undefined),
    perCounty,
  };
}

export async function measureWithSavedSearches(ctx: SavedSearchBenchContext) {
  const { runtime, n } = ctx;
  const { config } = runtime;
  const alias = aliasName(config.INDEX_PREFIX, 'certificates');
  let stack: StackProcess | undefined;
  try {
    // 1. An empty certificates index (the stack is stopped; its start makes a new one), then the searches.
    for (const index of await aliasTargets(runtime.opensearch, alias)) await runtime.opensearch.indices.delete({ index });
    stack = await ctx.startStack();
    const specs = savedSearchMix(ctx.state, ctx.count, ctx.seed);
    const made = await createSavedSearches(runtime, stack.url, specs);
    const held = await countSavedSearchQueries(runtime.opensearch, config.INDEX_PREFIX);
    if (held !== ctx.count) throw new Error(`the engine holds ${held} saved-search queries, not ${ctx.count}`);
    console.error(`N=${n}: ${ctx.count} saved searches of ${made.clients} clients made through the API in ${made.seconds} s`);

    // 2. The same load from empty, timed the same way.
    const linesBefore = ingestedLines(ctx.stackLog).length;
    const lastEvent = (await runtime.sql.get<{ id: number | null }>('SELECT max(id) AS id FROM events'))?.id ?? 0;
    const pipeline = await timeOperatorLoad(runtime, { env: ctx.env, cwd: ctx.dir, manifest: ctx.manifest, stackPid: stack.pid });
    const loaded = (await runtime.opensearch.count({ index: alias })).body.count;
    if (loaded !== n) throw new Error(`the load with saved searches left ${loaded} certificates searchable, not ${n}`);
    const phases = workerPhases(ingestedLines(ctx.stackLog).slice(linesBefore));
    const matchesLoaded = Number(
      (
        await runtime.sql.get<{ n: number }>("SELECT count(*) AS n FROM events WHERE type = 'saved_search.matches_loaded' AND id > ?", [
          lastEvent,
        ])
      )?.n ?? 0,
    );
    const physical = (await aliasTargets(runtime.opensearch, alias))[0]!;

    // Freshness with the searches in place, then /matches against the same search.
    const freshness =
      ctx.freshness.samples > 0
        ? await measureFreshness(runtime, {
            state: ctx.state,
            samples: ctx.freshness.samples,
            rows: ctx.freshness.rows,
            dir: ctx.dir,
            asOf: ctx.asOf,
            label: 'saved-search-update',
          })
        : [];
    const latency = await compareMatchesLatency(stack.url, made.searches, { searches: 50, requests: 200, seed: ctx.seed });
    const stackPeakMb = memoryOf(stack.pid).peakMb;
    await stack.stop();
    stack = undefined;

    // The raw side again, where the first half timed it: after the stack stopped.
    const rawIndex = `${config.INDEX_PREFIX}-certificates-raw-saved-searches`;
    const raw = await timeRawBulk(runtime, { index: rawIndex, like: physical, ndjson: ctx.ndjson, replicas: config.OPENSEARCH_REPLICAS });
    await runtime.opensearch.indices.delete({ index: rawIndex });
    const ratio = r3(raw.seconds / pipeline.seconds);

    // 3. Where each update's time went, and what percolating cost per changed certificate.
    const logged = new Map(ingestedLines(ctx.stackLog).map((l) => [l.file, l]));
    const samples = freshness.map(({ path, ...f }) => ({
      ...f,
      changed: logged.get(path)?.changed,
      jobMs: logged.get(path)?.durationMs,
      percolate: logged.get(path)?.timingsMs?.percolate ?? 0,
      ...logged.get(path)?.timingsMs,
    }));
    const percolateMs = samples.reduce((s, f) => s + f.percolate, 0);
    const changed = samples.reduce((s, f) => s + (f.changed ?? 0), 0);
    const visible = freshness.map((f) => f.visibleMs);
    return {
      savedSearches: ctx.count,
      clients: made.clients,
      createSeconds: made.seconds,
      mix: describeMix(specs),
      pipelineSeconds: pipeline.seconds,
      pipelineRowsPerSec: Math.round(n / pipeline.seconds),
      rawSeconds: raw.seconds,
      pipelineLoad1: pipeline.load1,
      rawLoad1: raw.load1,
      ratio,
      ratioWithout: ctx.baseline.ratio,
      /** The ratio with saved searches over the one without (target >= 0.9). */
      ratioQuotient: r3(ratio / ctx.baseline.ratio),
      /** The load's time without saved searches over its time with them. */
      pipelineQuotient: r3(ctx.baseline.pipelineSeconds / pipeline.seconds),
      stackCpuUs: Math.round((pipeline.stack.cpuSeconds * 1e6) / n),
      pipelineEngineCpuUs: Math.round((pipeline.engineCpu * 1e6) / n),
      matchesLoadedEvents: matchesLoaded,
      ...Object.fromEntries(Object.entries(phases.seconds).map(([k, v]) => [`${k}Seconds`, v])),
      stackPeakMb,
      freshnessP50Ms: percentile(visible, 50),
      freshnessP90Ms: percentile(visible, 90),
      privateEventsPerUpdate: freshness.map((f) => f.privateEvents),
      percolateMsPerUpdate: samples.map((f) => f.percolate),
      /** Summed percolate phase over the updates' changed certificates, in µs. */
      percolateUsPerChanged: changed > 0 ? Math.round((percolateMs * 1000) / changed) : Number.NaN,
      matches: latency,
      samples,
    };
  } finally {
    await stack?.stop();
  }
}

/** The second half's figures: a table, the targets in words, the updates one per row. */
export function printSavedSearches(n: number, f: Awaited<ReturnType<typeof measureWithSavedSearches>>): void {
  const { samples, mix, matches, privateEventsPerUpdate, percolateMsPerUpdate, ...figures } = f;
  console.log(`\nN=${n} with ${f.savedSearches} saved searches (${f.clients} enterprise clients, made in ${f.createSeconds} s)`);
  console.table({ ...figures, ...Object.fromEntries(Object.entries(matches).map(([k, v]) => [`matches ${k}`, v])) });
  console.log('mix:', JSON.stringify(mix));
  console.log(
    `N=${n}: ratio with saved searches ${f.ratio}, without ${f.ratioWithout}, quotient ${f.ratioQuotient} (target >= 0.9); ` +
      `freshness p50 ${f.freshnessP50Ms} ms, p90 ${f.freshnessP90Ms} ms (target p50 <= 2000), private events per update ${privateEventsPerUpdate.join(', ')}; ` +
      `/matches p50 ${matches.matchesP50Ms} ms against /certificates/search ${matches.searchP50Ms} ms, ${matches.p50Ratio} (target <= 1.10); ` +
      `percolation ${f.percolateUsPerChanged} µs per changed certificate (${percolateMsPerUpdate.join(', ')} ms per update)`,
  );
  if (samples.length) console.table(samples);
}
