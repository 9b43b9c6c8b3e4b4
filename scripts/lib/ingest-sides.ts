import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { BulkMode } from '../../indexer/indices/bulk-mode.ts';
import { createPhysicalIndex } from '../../indexer/indices/create.ts';
import { createIngestQueue, redisConnection } from '../../indexer/queue.ts';
import type { Config } from '../../services/config.ts';
import { loadMapping } from '../../services/engine/mapping-file.ts';
import type { Runtime } from '../../services/process/runtime.ts';
import { bulkFromFile } from './index-copy.ts';
import { sampleBusy } from './busy-sampler.ts';
import { engineCpuSeconds, watchProcess } from './proc-stats.ts';
import { runTaxcert } from './stack-process.ts';

/**
 * The two sides the ingest benchmark compares, each timed the same way however many loads a run
 * measures: the operator's `taxcert ingest --manifest --wait` against a running stack, and a raw
 * _bulk of the same documents into a copy of the index; and what the engine and the worker's log
 * say about each. Each side also returns the machine's 1-minute load average as it ended: on the
 * 2-core machine the benchmark's own processes account for about 2, and more means neighbours
 * shared the cores.
 */

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The store size of an index in MB (primaries), after its last refresh. */
export async function storeMb(runtime: Pick<Runtime, 'opensearch'>, index: string): Promise<number> {
  const res = await runtime.opensearch.indices.stats({ index, metric: ['store', 'segments'] });
  const all = (res.body as { _all: { primaries: { store: { size_in_bytes: number } } } })._all;
  return Math.round(all.primaries.store.size_in_bytes / 2 ** 20);
}

/** What the engine did on an index so far: refreshes, flushes, merges, and the segments left. */
export async function engineWork(runtime: Pick<Runtime, 'opensearch'>, index: string) {
  const res = await runtime.opensearch.indices.stats({
    index,
    metric: ['segments', 'refresh', 'flush', 'merge', 'indexing', 'search', 'docs'],
  });
  const p = (
    res.body as {
      _all: {
        primaries: {
          segments: { count: number };
          refresh: { total: number; total_time_in_millis: number };
          flush: { total: number };
          merges: { total: number; total_time_in_millis: number; total_docs: number };
          indexing: { index_total: number; index_time_in_millis: number };
          docs: { count: number; deleted: number };
          search: { query_total: number; query_time_in_millis: number };
        };
      };
    }
  )._all.primaries;
  return {
    segments: p.segments.count,
    refreshes: p.refresh.total,
    flushes: p.flush.total,
    merges: p.merges.total,
    mergeSeconds: round1(p.merges.total_time_in_millis / 1000),
    mergedDocsM: round1(p.merges.total_docs / 1e6),
    indexingSeconds: round1(p.indexing.index_time_in_millis / 1000),
    // Documents indexed against documents kept: more than one write per document shows here.
    indexedDocsM: Math.round(p.indexing.index_total / 1e4) / 100,
    deletedDocs: p.docs.deleted,
    searches: p.search.query_total,
    searchSeconds: round1(p.search.query_time_in_millis / 1000),
  };
}

export interface IngestedLine {
  file: string;
  durationMs: number;
  changed?: number;
  timingsMs?: Record<string, number>;
}

/** The worker's "file ingested" log lines, in the order written. */
export function ingestedLines(logFile: string): IngestedLine[] {
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"file ingested"'))
    .map((line) => JSON.parse(line) as IngestedLine);
}

/** Per-file phases the worker logged, summed over files (they overlap), in seconds. */
export function workerPhases(lines: readonly IngestedLine[]): { files: number; seconds: Record<string, number> } {
  const sums: Record<string, number> = {};
  for (const line of lines) for (const [k, v] of Object.entries(line.timingsMs ?? {})) sums[k] = (sums[k] ?? 0) + v;
  return { files: lines.length, seconds: Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, round1(v / 1000)])) };
}

/** Waits until a worker listens on the ingest queue (the CLI runs one of its own when none does). */
export async function waitForWorker(config: Config): Promise<void> {
  const connection = redisConnection(config);
  const queue = createIngestQueue(config, connection);
  try {
    for (let i = 0; i < 240; i++) {
      if ((await queue.getWorkersCount()) > 0) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('no worker listened on the queue within 60 s');
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/**
 * The operator's side: `taxcert ingest --manifest --wait` against the running stack, timed, with
 * the CPU the stack, the CLI and the engine spent meanwhile, and the engine's busy seconds
 * (scripts/lib/busy-sampler.ts). Throws when a file failed.
 */
export async function timeOperatorLoad(
  runtime: Pick<Runtime, 'opensearch'>,
  options: { env: NodeJS.ProcessEnv; cwd: string; manifest: string; stackPid: number },
) {
  const stackWatch = watchProcess(options.stackPid);
  const busy = await sampleBusy(runtime.opensearch, { others: { stack: options.stackPid } });
  const engineBefore = await engineCpuSeconds(runtime.opensearch);
  let cliWatch: ReturnType<typeof watchProcess> | undefined;
  const t = Date.now();
  const summary = JSON.parse(
    await runTaxcert(['ingest', '--manifest', options.manifest, '--wait', '--json'], {
      env: options.env,
      cwd: options.cwd,
      onSpawn: (pid) => {
        cliWatch = watchProcess(pid, 100);
        busy.watch('cli', pid);
      },
    }),
  ) as { failed: number; indexed: number; jobs: { error?: string }[] };
  const seconds = (Date.now() - t) / 1000;
  const stack = stackWatch.stop();
  const cli = cliWatch!.stop();
  const engineBusy = await busy.stop();
  const engineCpu = (await engineCpuSeconds(runtime.opensearch)) - engineBefore;
  if (summary.failed > 0) throw new Error(`${summary.failed} files failed: ${summary.jobs.find((j) => j.error)?.error}`);
  return { seconds, stack, cli, engineCpu, busy: engineBusy, load1: round1(loadavg()[0]!) };
}

/**
 * The raw side: the exported documents into a new index made from the same mapping file as
 * `like` (checked equal), loaded under the same bulk mode the worker holds (entered and left
 * once, as a busy worker does), timed, with the sender's and the engine's CPU.
 */
export async function timeRawBulk(
  runtime: Pick<Runtime, 'opensearch'>,
  options: { index: string; like: string; ndjson: string; replicas: number },
) {
  const { opensearch } = runtime;
  await createPhysicalIndex(opensearch, options.index, 'certificates', loadMapping('certificates'), { replicas: options.replicas });
  const [a, b] = await Promise.all([options.like, options.index].map((i) => opensearch.indices.getMapping({ index: i })));
  if (JSON.stringify(Object.values(a!.body)[0]) !== JSON.stringify(Object.values(b!.body)[0]))
    throw new Error('the raw copy has another mapping');
  const mode = new BulkMode(opensearch, { index: options.index, dataset: 'certificates', replicas: options.replicas });
  const engineBefore = await engineCpuSeconds(opensearch);
  const senderBefore = process.cpuUsage();
  const t = Date.now();
  const raw = await mode.run(() => bulkFromFile(opensearch, options.index, options.ndjson));
  const seconds = (Date.now() - t) / 1000;
  const sender = process.cpuUsage(senderBefore);
  const engineCpu = (await engineCpuSeconds(opensearch)) - engineBefore;
  if (raw.failed > 0) throw new Error(`raw bulk: ${raw.failed} documents failed`);
  return { seconds, senderCpu: (sender.user + sender.system) / 1e6, engineCpu, load1: round1(loadavg()[0]!) };
}
