import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { dropIndices } from '../../../../indexer/indices/describe.ts';
import { aliasTargets, ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { IndexLifecycleError } from '../../../../indexer/indices/errors.ts';
import { loadMapping, type MappingFile } from '../../../../services/engine/mapping-file.ts';
import { reindex, type ReindexProgress } from '../../../../indexer/indices/reindex.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { createOpenSearch } from '../../../../services/engine/client.ts';
import { testContext } from '../../../helpers/context.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

const ctx = testContext(import.meta.url);
const prefix = ctx.config.INDEX_PREFIX;
const alias = aliasName(prefix, 'certificates');
const TOTAL = 20_000;
let client: Client;

async function physicalIndices(): Promise<string[]> {
  const res = await client.cat.indices({ index: `${prefix}-certificates-*`, format: 'json', h: ['index'] });
  return (res.body as Array<{ index: string }>).map((r) => r.index).sort();
}

async function liveIndex(): Promise<string> {
  const targets = await aliasTargets(client, alias);
  expect(targets).toHaveLength(1);
  return targets[0]!;
}

beforeAll(async () => {
  client = createOpenSearch(ctx.config);
  await ensureIndices(client, prefix, 0);
  const writer = createBulkWriter(client, { index: alias, refresh: true });
  for (let n = 0; n < TOTAL; n++) {
    const doc = sampleCertificate({}, n);
    await writer.add(doc.id, doc);
  }
  expect((await writer.flush()).created).toBe(TOTAL);
});

afterAll(async () => {
  await dropIndices(client, prefix);
  await client.close();
  ctx.cleanupFiles();
});

describe('reindex', () => {
  it('swaps the alias atomically while searches keep seeing the same total', async () => {
    const before = await liveIndex();
    const seen: number[] = [];
    let rounds = 0;
    let lastRound = Number.POSITIVE_INFINITY;
    const watcher = (async () => {
      while (rounds < lastRound) {
        const [count, search] = await Promise.all([
          client.count({ index: alias }),
          client.search({ index: alias, body: { size: 0, track_total_hits: true } as never }),
        ]);
        seen.push(count.body.count, (search.body.hits.total as { value: number }).value);
        rounds += 1;
      }
    })();
    const progress: ReindexProgress[] = [];
    let result: Awaited<ReturnType<typeof reindex>>;
    try {
      result = await reindex(client, prefix, 'certificates', {
        onProgress: (p) => progress.push(p),
        pollIntervalMs: 50,
        keepOld: true,
      });
    } finally {
      // Counted rather than timed: the round in flight, then three that start after the swap.
      lastRound = rounds + 4;
      await watcher;
    }

    expect(result.from).toBe(before);
    expect(result.to).not.toBe(before);
    expect(result.documents).toBe(TOTAL);
    expect(result.oldDeleted).toBe(false);
    expect(await liveIndex()).toBe(result.to);
    expect(result.to).toMatch(new RegExp(`^${alias}-v${loadMapping('certificates').version}-`));
    expect(seen.length).toBeGreaterThan(4);
    expect(new Set(seen)).toEqual(new Set([TOTAL]));
    expect(progress.at(-1)).toEqual({ created: TOTAL, total: TOTAL });
    const settings = await client.indices.getSettings({ index: result.to, flat_settings: true });
    const s = (settings.body as Record<string, { settings: Record<string, string> }>)[result.to]!.settings;
    // Certificates are refreshed only by the worker, between two sends (docs/analytics-rollups.md).
    expect(s['index.refresh_interval']).toBe('-1');
    expect(s['index.number_of_replicas']).toBe('0');
    expect(await physicalIndices()).toEqual([before, result.to].sort());
  });

  it('deletes the old physical index after the swap by default', async () => {
    const before = await liveIndex();
    const result = await reindex(client, prefix, 'certificates', { pollIntervalMs: 50 });
    expect(result).toMatchObject({ from: before, documents: TOTAL, oldDeleted: true });
    const remaining = await physicalIndices();
    expect(remaining).toContain(result.to);
    expect(remaining).not.toContain(before);
  });

  it('leaves alias and old index untouched and removes the half-built index when documents are rejected', async () => {
    const before = await liveIndex();
    const indicesBefore = await physicalIndices();
    const file = loadMapping('certificates');
    const { owner_name: _dropped, ...props } = (file.mappings as { properties: Record<string, unknown> }).properties;
    const strictWithoutOwner: MappingFile = { ...file, version: 99, mappings: { ...file.mappings, properties: props } };

    const err = await reindex(client, prefix, 'certificates', { mapping: strictWithoutOwner, pollIntervalMs: 50 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IndexLifecycleError);
    expect((err as IndexLifecycleError).code).toBe('reindex_failed');
    expect(await liveIndex()).toBe(before);
    expect(await physicalIndices()).toEqual(indicesBefore);
    expect((await client.count({ index: alias })).body.count).toBe(TOTAL);
  });

  it('leaves everything untouched when the new index cannot be created', async () => {
    const before = await liveIndex();
    const indicesBefore = await physicalIndices();
    const file = loadMapping('certificates');
    const broken: MappingFile = {
      ...file,
      mappings: { ...file.mappings, properties: { id: { type: 'keyword', analyzer: 'no_such_analyzer' } } },
    };
    await expect(reindex(client, prefix, 'certificates', { mapping: broken })).rejects.toMatchObject({
      code: 'reindex_failed',
    });
    expect(await liveIndex()).toBe(before);
    expect(await physicalIndices()).toEqual(indicesBefore);
  });
});
