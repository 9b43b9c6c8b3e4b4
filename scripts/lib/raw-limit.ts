import { createReadStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Client } from '@opensearch-project/opensearch';
import { BulkMode } from '../../indexer/indices/bulk-mode.ts';
import { createPhysicalIndex } from '../../indexer/indices/create.ts';
import { loadMapping } from '../../services/engine/mapping-file.ts';
import { type BusySummary, sampleBusy } from './busy-sampler.ts';

/**
 * The raw side at the engine's own limit: what the engine takes when nothing but the engine does
 * work. Every _bulk body is prepared before the clock starts (written to files, read back from the
 * page cache while sending: a few milliseconds a body, against the engine's seconds), and the
 * batch size and requests in flight are chosen by trying them: each pair loads the same first
 * `trialDocs` documents into a fresh index, and the fastest pair then loads all of them, timed.
 * The trials also warm the node with the same mapping before the timed load.
 */

export interface RawTrial {
  docsPerRequest: number;
  inFlight: number;
  docsPerSec: number;
}

interface Body {
  path: string;
  docs: number;
}

/** The exported `id<TAB>source` lines as _bulk bodies of `docsPerRequest` documents, first `limit` only. */
async function prepareBodies(ndjson: string, dir: string, docsPerRequest: number, limit = Number.POSITIVE_INFINITY): Promise<Body[]> {
  mkdirSync(dir, { recursive: true });
  const bodies: Body[] = [];
  let lines: string[] = [];
  let docs = 0;
  const close = () => {
    if (docs === 0) return;
    const path = join(dir, `body-${String(bodies.length).padStart(6, '0')}.ndjson`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    bodies.push({ path, docs });
    lines = [];
    docs = 0;
  };
  let seen = 0;
  for await (const line of createInterface({ input: createReadStream(ndjson, { highWaterMark: 1 << 20 }), crlfDelay: Infinity })) {
    if (seen++ >= limit) break;
    const tab = line.indexOf('\t');
    lines.push(JSON.stringify({ index: { _id: line.slice(0, tab) } }), line.slice(tab + 1));
    if (++docs === docsPerRequest) close();
  }
  close();
  return bodies;
}

/** Sends the prepared bodies, `inFlight` at a time; throws when any document failed. */
async function sendBodies(client: Client, index: string, bodies: readonly Body[], inFlight: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < bodies.length) {
      const body = bodies[next++]!;
      const res = await client.bulk({ index, body: (await readFile(body.path)) as never, filter_path: 'errors,items.*.error' });
      if ((res.body as { errors?: boolean }).errors) throw new Error(`raw _bulk: a document of ${body.path} failed`);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}

async function freshIndex(client: Client, index: string, replicas: number) {
  await client.indices.delete({ index, ignore_unavailable: true });
  await createPhysicalIndex(client, index, 'certificates', loadMapping('certificates'), { replicas });
}

/** One timed load of `bodies` into a fresh index under the worker's bulk mode; docs/s and where the engine idled. */
async function timedLoad(client: Client, index: string, bodies: readonly Body[], inFlight: number, replicas: number) {
  await freshIndex(client, index, replicas);
  const docs = bodies.reduce((n, b) => n + b.docs, 0);
  const mode = new BulkMode(client, { index, dataset: 'certificates', replicas });
  const sampler = await sampleBusy(client, { others: { sender: process.pid } });
  const senderBefore = process.cpuUsage();
  const t = Date.now();
  await mode.run(() => sendBodies(client, index, bodies, inFlight));
  const seconds = (Date.now() - t) / 1000;
  const sender = process.cpuUsage(senderBefore);
  const busy = await sampler.stop();
  return { seconds, docsPerSec: Math.round(docs / seconds), senderCpu: (sender.user + sender.system) / 1e6, busy };
}

export async function fastestRawBulk(
  client: Client,
  options: {
    index: string;
    ndjson: string;
    dir: string;
    replicas: number;
    sizes: readonly number[];
    inFlight: readonly number[];
    trialDocs: number;
  },
): Promise<{ seconds: number; docsPerSec: number; senderCpu: number; best: RawTrial; trials: RawTrial[]; busy: BusySummary }> {
  const trials: RawTrial[] = [];
  try {
    for (const size of options.sizes) {
      const dir = join(options.dir, `trial-${size}`);
      const bodies = await prepareBodies(options.ndjson, dir, size, options.trialDocs);
      for (const inFlight of options.inFlight) {
        const run = await timedLoad(client, options.index, bodies, inFlight, options.replicas);
        trials.push({ docsPerRequest: size, inFlight, docsPerSec: run.docsPerSec });
        console.error(`raw trial: ${size} docs a request, ${inFlight} in flight: ${run.docsPerSec} docs/s`);
      }
      rmSync(dir, { recursive: true, force: true });
    }
    const best = trials.reduce((a, b) => (b.docsPerSec > a.docsPerSec ? b : a));
    const dir = join(options.dir, 'full');
    const bodies = await prepareBodies(options.ndjson, dir, best.docsPerRequest);
    const full = await timedLoad(client, options.index, bodies, best.inFlight, options.replicas);
    rmSync(dir, { recursive: true, force: true });
    return { ...full, best, trials };
  } finally {
    await client.indices.delete({ index: options.index, ignore_unavailable: true }).catch(() => undefined);
  }
}
