import { readFileSync } from 'node:fs';
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

/**
 * Samples a process's CPU and memory every `everyMs` while it runs: the last CPU reading
 * survives the process's exit (its /proc entry goes with it), and the largest RSS seen is kept.
 */
export function watchProcess(pid: number | undefined, everyMs = 250) {
  const first = cpuSecondsOf(pid);
  let lastCpu = first;
  let maxRssMb = 0;
  let peakMb = 0;
  const read = () => {
    const cpu = cpuSecondsOf(pid);
    if (Number.isFinite(cpu)) lastCpu = cpu;
    const memory = memoryOf(pid);
    maxRssMb = Math.max(maxRssMb, memory.rssMb);
    peakMb = Math.max(peakMb, memory.peakMb);
  };
  const timer = setInterval(read, everyMs);
  return {
    /**
     * Stops sampling: CPU seconds used since the watch began, the largest RSS sampled, and the
     * kernel's own peak (VmHWM) as last read, which no sampling interval can miss.
     */
    stop(): { cpuSeconds: number; maxRssMb: number; peakMb: number } {
      clearInterval(timer);
      read();
      return { cpuSeconds: lastCpu - (Number.isFinite(first) ? first : 0), maxRssMb, peakMb };
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
