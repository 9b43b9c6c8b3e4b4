import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoadResources, inLoadMode, type LoadResources, SMALL_FILE_BYTES } from '../../../../indexer/load/load-resources.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

/**
 * To make a small update searchable within seconds, a county's small update on an idle worker loads
 * without switching the index into bulk mode and back (two cluster-state updates before and after
 * its rows); a large file, or any file while another load holds the mode, loads in it. Shown on
 * parcels: certificates are never refreshed on a timer (docs/analytics-rollups.md), so their
 * search setting is the bulk one.
 */
describe('inLoadMode on a real index', () => {
  let t: TestRuntime;
  let alias: string;
  let load: LoadResources;
  let dir: string;
  const refreshInterval = async () => {
    const res = await t.runtime.opensearch.indices.getSettings({ index: alias, flat_settings: true });
    return Object.values(res.body as Record<string, { settings: Record<string, string> }>)[0]!.settings['index.refresh_interval'];
  };
  const file = (name: string, bytes: number) => {
    const path = join(dir, name);
    writeFileSync(path, Buffer.alloc(bytes, 'x'));
    return path;
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    alias = aliasName(t.config.INDEX_PREFIX, 'parcels');
    load = createLoadResources(t.runtime.opensearch, {
      prefix: t.config.INDEX_PREFIX,
      replicas: 0,
      concurrency: 4,
      logger: t.runtime.logger,
    });
    dir = mkdtempSync(join(tmpdir(), 'load-mode-'));
    // The resources repair settings when built; that must be done before anything is asserted.
    await load.bulkModes.parcels.run(async () => undefined);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('loads a small file on an idle worker with the search settings left as they are', async () => {
    const small = file('update.csv', SMALL_FILE_BYTES - 1);
    expect(await inLoadMode(load, 'parcels', small, refreshInterval)).toBe('1s');
    expect(await refreshInterval()).toBe('1s');
  });

  it('loads a large file in bulk mode and restores the settings after it', async () => {
    const large = file('county.csv', SMALL_FILE_BYTES);
    expect(await inLoadMode(load, 'parcels', large, refreshInterval)).toBe('-1');
    expect(await refreshInterval()).toBe('1s');
  });

  it('a small file joins the bulk mode another load holds, and the mode ends with the last of them', async () => {
    const small = file('update.csv', 1024);
    const large = file('county.csv', SMALL_FILE_BYTES + 1);
    let release!: () => void;
    const holding = inLoadMode(load, 'parcels', large, () => new Promise<void>((r) => (release = r)));
    await expect.poll(() => load.bulkModes.parcels.held).toBe(true);
    expect(await inLoadMode(load, 'parcels', small, refreshInterval)).toBe('-1');
    release();
    await holding;
    expect(await refreshInterval()).toBe('1s');
  });

  it('of small files taken together, only the first loads outside bulk mode: a queue switches once, not never', async () => {
    const first = file('first.csv', 1024);
    const second = file('second.csv', 1024);
    let release!: () => void;
    const firstSaw = inLoadMode(load, 'parcels', first, async () => {
      const seen = await refreshInterval();
      await new Promise<void>((r) => (release = r));
      return seen;
    });
    await expect.poll(() => release !== undefined).toBe(true);
    const secondSaw = await inLoadMode(load, 'parcels', second, refreshInterval);
    release();
    expect([await firstSaw, secondSaw]).toEqual(['1s', '-1']);
    expect(await refreshInterval()).toBe('1s');
    expect(load.loading.parcels).toBe(0);
  });

  it('a file it cannot read goes the large way, so pass 1 gives the reason', async () => {
    expect(await inLoadMode(load, 'parcels', join(dir, 'missing.csv'), async () => load.bulkModes.parcels.held)).toBe(true);
  });
});
