import { cpus } from 'node:os';
import type { Client } from '@opensearch-project/opensearch';
import { cpuSecondsOf } from './proc-stats.ts';

/**
 * How busy the engine was, second by second, while one side of the ingest benchmark ran: the
 * share of seconds it used less than `idleBelow` of the machine's cores tells where a pipeline
 * leaves the engine waiting (gaps between files, refreshes, the feed's reads, the CLI's waiting),
 * which an average over the whole load hides. Other processes (the stack, the CLI, the raw sender)
 * are sampled alongside, so a second the engine idled can be told apart from one it was starved.
 */

export interface BusySummary {
  seconds: number;
  /** The engine's mean CPU in cores (2 = both cores of our machine). */
  engineMeanCores: number;
  /** Share (0-1) of sampled seconds the engine used less than `idleBelow` of the cores. */
  engineIdleShare: number;
  /** The other processes' mean CPU in cores, by name. */
  othersMeanCores: Record<string, number>;
  /** Per-second engine cores, for a closer look (rounded to 0.01). */
  engineCores: number[];
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The engine's own pid when it runs on this machine (a local node), else undefined. */
export async function localEnginePid(client: Client): Promise<number | undefined> {
  const res = await client.nodes.info({ metric: ['process'] });
  const nodes = Object.values((res.body as { nodes: Record<string, { process?: { id?: number } }> }).nodes);
  const pid = nodes.length === 1 ? nodes[0]?.process?.id : undefined;
  return pid !== undefined && Number.isFinite(cpuSecondsOf(pid)) ? pid : undefined;
}

/** The engine's CPU seconds so far: from /proc for a local node, else from the nodes API. */
async function engineCpu(client: Client, pid: number | undefined): Promise<number> {
  if (pid !== undefined) return cpuSecondsOf(pid);
  const res = await client.nodes.stats({ metric: ['process'] });
  const nodes = Object.values((res.body as { nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> }).nodes);
  return nodes.reduce((sum, n) => sum + n.process.cpu.total_in_millis, 0) / 1000;
}

/**
 * Starts sampling every `everyMs`; `stop()` summarises. `others` are pids read from /proc (a pid
 * may be given later through `watch`, as the CLI's once it is spawned).
 */
export async function sampleBusy(client: Client, options: { others?: Record<string, number>; everyMs?: number; idleBelow?: number } = {}) {
  const everyMs = options.everyMs ?? 1000;
  const idleBelow = options.idleBelow ?? 0.8;
  const cores = cpus().length;
  const pid = await localEnginePid(client);
  const others = new Map(Object.entries(options.others ?? {}));
  const engine: number[] = [];
  const otherCores = new Map<string, number[]>();
  let lastEngine = await engineCpu(client, pid);
  let lastOthers = new Map([...others].map(([name, p]) => [name, cpuSecondsOf(p)]));
  let lastAt = Date.now();
  let pending: Promise<void> = Promise.resolve();
  const read = async () => {
    const now = Date.now();
    const cpu = await engineCpu(client, pid);
    const wall = (now - lastAt) / 1000;
    if (wall <= 0) return;
    engine.push((cpu - lastEngine) / wall);
    for (const [name, p] of others) {
      const c = cpuSecondsOf(p);
      const before = lastOthers.get(name);
      if (Number.isFinite(c) && before !== undefined && Number.isFinite(before)) {
        const list = otherCores.get(name) ?? [];
        list.push((c - before) / wall);
        otherCores.set(name, list);
      }
      lastOthers.set(name, c);
    }
    lastEngine = cpu;
    lastAt = now;
  };
  const timer = setInterval(() => {
    pending = pending.then(read).catch(() => undefined);
  }, everyMs);
  return {
    /** Samples this process too from now on (a child spawned after sampling began). */
    watch(name: string, p: number) {
      others.set(name, p);
      lastOthers = new Map([...lastOthers, [name, cpuSecondsOf(p)]]);
    },
    async stop(): Promise<BusySummary> {
      clearInterval(timer);
      await pending;
      const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
      return {
        seconds: engine.length,
        engineMeanCores: round2(mean(engine)),
        engineIdleShare: engine.length ? round2(engine.filter((c) => c < idleBelow * cores).length / engine.length) : 0,
        othersMeanCores: Object.fromEntries([...otherCores].map(([name, xs]) => [name, round2(mean(xs))])),
        engineCores: engine.map(round2),
      };
    },
  };
}
