import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkMode } from '../../../../indexer/indices/bulk-mode.ts';
import { describeIndices, dropIndices } from '../../../../indexer/indices/describe.ts';
import { ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { loadMapping } from '../../../../services/engine/mapping-file.ts';
import { aliasName, DATASETS } from '../../../../services/domain/datasets.ts';
import { createOpenSearch, pingOpenSearch } from '../../../../services/engine/client.ts';
import { testContext } from '../../../helpers/context.ts';
import { ensureSavedSearchIndex, savedSearchIndexName } from '../../../../services/engine/saved-search-index.ts';

const ctx = testContext(import.meta.url);
const prefix = ctx.config.INDEX_PREFIX;
let client: Client;

async function settingsOf(index: string) {
  const res = await client.indices.getSettings({ index, flat_settings: true });
  const body = res.body as Record<string, { settings: Record<string, string> }>;
  return Object.values(body)[0]!.settings;
}

beforeAll(() => {
  client = createOpenSearch(ctx.config);
});

afterAll(async () => {
  await dropIndices(client, prefix);
  await client.close();
  ctx.cleanupFiles();
});

describe('engine client', () => {
  it('pings a live node and reports a dead one as false', async () => {
    expect(await pingOpenSearch(client, 2000)).toBe(true);
    const dead = createOpenSearch({ OPENSEARCH_URL: 'http://127.0.0.1:9' });
    expect(await pingOpenSearch(dead, 500)).toBe(false);
    await dead.close();
  });
});

describe('ensureIndices', () => {
  it('creates one versioned physical index behind each alias, and is idempotent', async () => {
    const first = await ensureIndices(client, prefix, 0);
    expect(first.map((e) => e.dataset)).toEqual([...DATASETS]);
    for (const e of first) {
      expect(e.created).toBe(true);
      expect(e.alias).toBe(`${prefix}-${e.dataset}`);
      const version = loadMapping(e.dataset).version;
      expect(e.index).toMatch(new RegExp(`^${prefix}-${e.dataset}-v${version}-[0-9a-z]+$`));
    }
    const second = await ensureIndices(client, prefix, 0);
    expect(second.map((e) => [e.index, e.created])).toEqual(first.map((e) => [e.index, false]));

    const described = await describeIndices(client, prefix);
    expect(described.map((d) => [d.alias, d.index, d.documents, d.mappingVersion])).toEqual(
      first.map((e) => [e.alias, e.index, 0, loadMapping(e.dataset).version]),
    );
  });

  it('settles two processes racing to create the same alias on one index', async () => {
    const racePrefix = `${prefix}-race`;
    try {
      const [a, b] = await Promise.all([ensureIndices(client, racePrefix, 0), ensureIndices(client, racePrefix, 0)]);
      expect(a.map((e) => e.index)).toEqual(b.map((e) => e.index));
      for (const e of a) {
        const res = await client.indices.getAlias({ name: e.alias });
        expect(Object.keys(res.body)).toEqual([e.index]);
      }
    } finally {
      await dropIndices(client, racePrefix);
    }
  });

  it('drops only the indices of its own prefix', async () => {
    const other = `${prefix}-other`;
    await ensureIndices(client, other, 0);
    const dropped = await dropIndices(client, other);
    expect(dropped).toHaveLength(DATASETS.length);
    const mine = await describeIndices(client, prefix);
    expect(mine.every((d) => d.index !== null)).toBe(true);
    const theirs = await describeIndices(client, other);
    expect(theirs.every((d) => d.index === null)).toBe(true);
  });

  it("drops the prefix's saved searches index too", async () => {
    const other = `${prefix}-searches`;
    await ensureIndices(client, other, 0);
    await ensureSavedSearchIndex(client, other, 0);
    expect(await dropIndices(client, other)).toContain(savedSearchIndexName(other));
    expect((await client.indices.exists({ index: savedSearchIndexName(other) })).body).toBe(false);
  });
});

describe('BulkMode, one load', () => {
  const target = () => ({ index: aliasName(prefix, 'sales'), dataset: 'sales' as const, replicas: 1 });

  it('turns refresh and replicas off during the load and restores both after', async () => {
    const during = await new BulkMode(client, target()).run(() => settingsOf(target().index));
    expect(during['index.refresh_interval']).toBe('-1');
    expect(during['index.number_of_replicas']).toBe('0');
    const after = await settingsOf(target().index);
    expect(after['index.refresh_interval']).toBe(loadMapping('sales').settings.index?.refresh_interval);
    expect(after['index.number_of_replicas']).toBe('1');
  });

  it('restores them when the load throws, and rethrows the error', async () => {
    const boom = new Error('load failed');
    await expect(
      new BulkMode(client, { ...target(), replicas: 0 }).run(async () => {
        throw boom;
      }),
    ).rejects.toBe(boom);
    const after = await settingsOf(target().index);
    expect(after['index.refresh_interval']).toBe('1s');
    expect(after['index.number_of_replicas']).toBe('0');
  });
});
