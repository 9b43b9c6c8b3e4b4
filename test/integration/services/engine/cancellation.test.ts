import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOpenSearch } from '../../../../services/engine/client.ts';
import { cancelByOpaqueId, EngineError, multiSearch, search } from '../../../../services/engine/search.ts';
import { testContext } from '../../../helpers/context.ts';

/**
 * A search that outlives its bound must stop costing the engine: the API's own timeout alone
 * would leave the engine computing an answer nobody reads. These searches are made slow on
 * purpose (a script that loops for every document, many seconds of engine work uncancelled)
 * and given a 300 ms bound; afterwards no search task of this file's index may be left
 * running. The engine checks for cancellation between blocks of documents, so a cancelled
 * task can take a moment to end: the test waits for it to go, and asserts that at the moment
 * the API gave up every such task was already marked cancelled.
 */
const ctx = testContext(import.meta.url);
const index = `${ctx.config.INDEX_PREFIX}-slow`;
let client: Client;

const DOCS = 50_000;
// A chain of modular steps seeded by the document: nothing the compiler can fold away, so
// about 50,000 x 50,000 steps (several seconds of one core) whatever the machine's load.
const slowBody = {
  size: 0,
  track_total_hits: true,
  query: {
    script: {
      script: { source: "long x = doc['n'].value; for (int i = 0; i < 50000; i++) { x = (x * 31 + i) % 1000003; } return x != -1;" },
    },
  },
};

interface TaskInfo {
  description?: string;
  cancelled?: boolean;
  headers?: Record<string, string>;
  parent_task_id?: string;
}

/** Every search task (parents and shard tasks) the engine runs on this file's index. */
async function searchTasks(): Promise<TaskInfo[]> {
  const res = await client.tasks.list({ actions: '*search*', detailed: true });
  const nodes = (res.body as { nodes?: Record<string, { tasks: Record<string, TaskInfo> }> }).nodes ?? {};
  return Object.values(nodes)
    .flatMap((n) => Object.values(n.tasks))
    .filter((t) => t.description?.includes(index));
}

async function expectNoTaskLeft(): Promise<void> {
  await vi.waitFor(async () => expect(await searchTasks()).toEqual([]), { timeout: 30_000, interval: 200 });
}

beforeAll(async () => {
  client = createOpenSearch(ctx.config);
  await client.indices.create({
    index,
    body: { settings: { number_of_shards: 1, number_of_replicas: 0 }, mappings: { properties: { n: { type: 'long' } } } },
  });
  const lines = Array.from({ length: DOCS }, (_, i) => [{ index: {} }, { n: i }]).flat();
  await client.bulk({ index, refresh: true, body: lines as never });
}, 60_000);

afterAll(async () => {
  await client.indices.delete({ index }).catch(() => undefined);
  await client.close();
  ctx.cleanupFiles();
});

describe('a search past its bound is cancelled in the engine', () => {
  it('search: a timeout error, every task of it cancelled, then none left', async () => {
    const err = await search(client, index, slowBody, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).reason).toBe('timeout');
    for (const task of await searchTasks()) expect(task.cancelled).toBe(true);
    await expectNoTaskLeft();
  }, 60_000);

  it('multi-search: every search of it is cancelled too', async () => {
    const err = await multiSearch(client, index, [slowBody, slowBody], { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).reason).toBe('timeout');
    for (const task of await searchTasks()) expect(task.cancelled).toBe(true);
    await expectNoTaskLeft();
  }, 60_000);

  it('a search the client gave up on is cancelled by its X-Opaque-Id', async () => {
    // Sent without the engine-side interval, as a client whose engine never got the bound would: only the opaque id can stop it.
    const opaqueId = `taxcert-search-test-${Date.now()}`;
    const running = client.search({ index, body: slowBody as never }, { opaqueId, requestTimeout: 120_000, maxRetries: 0 }).then(
      () => 'finished',
      (e: { meta?: { body?: { error?: { type?: string } } } }) => e.meta?.body?.error?.type ?? 'failed',
    );
    await vi.waitFor(async () => expect((await searchTasks()).some((t) => t.headers?.['X-Opaque-Id'] === opaqueId)).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    expect(await cancelByOpaqueId(client, opaqueId)).toBe(1);
    expect(await running).not.toBe('finished');
    await expectNoTaskLeft();
  }, 60_000);
});
