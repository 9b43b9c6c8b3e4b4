import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { BulkMode } from '../../../../indexer/indices/bulk-mode.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

describe('BulkMode on a real index', () => {
  let t: TestRuntime;
  let alias: string;
  const settings = async () => {
    const res = await t.runtime.opensearch.indices.getSettings({ index: alias, flat_settings: true });
    const index = Object.values(res.body as Record<string, { settings: Record<string, string> }>)[0]!;
    return { refresh: index.settings['index.refresh_interval'], replicas: index.settings['index.number_of_replicas'] };
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    alias = aliasName(t.config.INDEX_PREFIX, 'parcels');
  });
  afterAll(() => t.teardown());

  it('keeps refresh off while any load runs and restores it when the last one ends', async () => {
    const mode = new BulkMode(t.runtime.opensearch, { index: alias, dataset: 'parcels', replicas: 0 });
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((r) => {
      releaseFirst = r;
    });
    const first = mode.run(() => firstHolds);
    // Entering is one settings update; a busy node may take longer than any fixed sleep.
    await vi.waitFor(async () => expect((await settings()).refresh).toBe('-1'), { timeout: 10_000, interval: 100 });

    await mode.run(async () => {
      expect((await settings()).refresh).toBe('-1');
    });
    // The second load ended, but the first still runs: still off.
    expect((await settings()).refresh).toBe('-1');

    releaseFirst();
    await first;
    expect(await settings()).toEqual({ refresh: '1s', replicas: '0' });
  });

  it('restores search settings when the load throws, and documents written are searchable', async () => {
    const mode = new BulkMode(t.runtime.opensearch, { index: alias, dataset: 'parcels', replicas: 0 });
    await expect(
      mode.run(async () => {
        await t.runtime.opensearch.index({ index: alias, id: 'x', body: { county_slug: 'alachua' } });
        throw new Error('load failed');
      }),
    ).rejects.toThrow('load failed');
    expect(await settings()).toEqual({ refresh: '1s', replicas: '0' });
    const count = await t.runtime.opensearch.count({ index: alias });
    expect(count.body.count).toBe(1);
  });

  it('repair() puts settings back after a worker died in bulk mode', async () => {
    await t.runtime.opensearch.indices.putSettings({ index: alias, body: { index: { refresh_interval: '-1' } } });
    await new BulkMode(t.runtime.opensearch, { index: alias, dataset: 'parcels', replicas: 0 }).repair();
    expect((await settings()).refresh).toBe('1s');
  });
});
