import { readdirSync, readFileSync } from 'node:fs';
import type { Client } from '@opensearch-project/opensearch';

/**
 * What the benchmarks read about the processes they run (Linux /proc) and the engine: CPU used
 * and resident memory, so a rate can be told apart as "who spent the cores" and memory shown flat
 * (or not) as N grows.
 */

/** CPU seconds a process has used so far (user + system); NaN once it is gone. 100 clock ticks per second on Linux. */
export function cpuSecondsOf(pid: number | undefined): number {
  try {
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** Peak and current resident memory of a process in MB (zeros once it is gone). */
export function memoryOf(pid: number | undefined): { peakMb: number; rssMb: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // gone
  }
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) };
}

/** The pids a process started, and theirs (Linux's children lists of each of its threads). */
export function descendantsOf(pid: number | undefined): number[] {
  const found: number[] = [];
  const visit = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const task of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${p}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.split(' ').filter(Boolean).map(Number)) {
        found.push(child);
        visit(child);
      }
    }
  };
  if (pid !== undefined) visit(pid);
  return found;
}

/**
 * Samples a process (and with `withChildren` every process it starts) every `everyMs` while it
 * runs: the last CPU reading of each survives its exit (its /proc entry goes with it), and each
 * one's peak is kept. Children are opt-in: a stack's children include an engine node it started.
 */
export function watchProcess(pid: number | undefined, everyMs = 250, options: { withChildren?: boolean } = {}) {
  const first = cpuSecondsOf(pid);
  const lastCpu = new Map<number, number>();
  const peaks = new Map<number, number>();
  let maxRssMb = 0;
  const read = () => {
    let rss = 0;
    for (const p of [pid ?? -1, ...(options.withChildren ? descendantsOf(pid) : [])]) {
      const cpu = cpuSecondsOf(p);
      if (Number.isFinite(cpu)) lastCpu.set(p, cpu);
      const memory = memoryOf(p);
      rss += memory.rssMb;
      peaks.set(p, Math.max(peaks.get(p) ?? 0, memory.peakMb));
    }
    maxRssMb = Math.max(maxRssMb, rss);
  };
  const timer = setInterval(read, everyMs);
  const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    /**
     * Stops sampling: CPU seconds used since the watch began (with its children's, when asked),
     * the largest RSS of them all sampled at once, and the sum of each process's own peak
     * (the kernel's VmHWM as last read), which no sampling interval can miss and the tree's peak
     * never exceeds.
     */
    stop(): { cpuSeconds: number; maxRssMb: number; peakMb: number } {
      clearInterval(timer);
      read();
      return { cpuSeconds: sum(lastCpu) - (Number.isFinite(first) ? first : 0), maxRssMb, peakMb: sum(peaks) };
    },
  };
}

/** CPU seconds the engine has used, summed over its nodes. */
export async function engineCpuSeconds(client: Client): Promise<number> {
  const res = await client.nodes.stats({ metric: ['process'] });
  const nodes = Object.values((res.body as { nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> }).nodes);
  return nodes.reduce((sum, n) => sum + n.process.cpu.total_in_millis, 0) / 1000;
}

/** Heap in use and its maximum, summed over the engine's nodes, in MB. */
export async function engineHeapMb(client: Client): Promise<{ usedMb: number; maxMb: number }> {
  const res = await client.nodes.stats({ metric: ['jvm'] });
  const nodes = Object.values(
    (res.body as { nodes: Record<string, { jvm: { mem: { heap_used_in_bytes: number; heap_max_in_bytes: number } } }> }).nodes,
  );
  const mb = (n: number) => Math.round(n / 2 ** 20);
  return {
    usedMb: mb(nodes.reduce((s, n) => s + n.jvm.mem.heap_used_in_bytes, 0)),
    maxMb: mb(nodes.reduce((s, n) => s + n.jvm.mem.heap_max_in_bytes, 0)),
  };
}
