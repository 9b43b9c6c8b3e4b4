import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../../../services/bulk/entry.ts';
import { folderStorage } from '../../../../services/bulk/folder-storage.ts';
import { type BulkDataset, manifestName } from '../../../../services/bulk/names.ts';
import { deltaCutoff, pruneBulkFiles, snapshotScope } from '../../../../services/bulk/prune.ts';
import type { BulkStorage } from '../../../../services/bulk/storage.ts';
import { writeFileSet } from '../../../../services/bulk/write-files.ts';

/** One NDJSON file (and its manifest entry) of the given identity, written the way the builders write. */
async function put(
  storage: BulkStorage,
  key: { dataset: BulkDataset; kind: 'snapshot' | 'delta'; county?: string; taxYear?: number; day?: string },
) {
  async function* rows() {
    yield [{ id: 'cert_0001', n: 1 }];
  }
  await writeFileSet(
    storage,
    {
      key: { dataset: key.dataset, kind: key.kind, county: key.county ?? null, taxYear: key.taxYear ?? null, day: key.day ?? null },
      columns: ['id', 'n'],
      parquet: 'infer',
      formats: ['ndjson'],
      throughEvent: null,
      now: new Date('2026-11-28T12:00:00.000Z'),
    },
    rows(),
  );
}

describe('the bulk folder keeps deltas as long as the feed, and snapshots while their scope holds rows', () => {
  let dir: string;
  let storage: BulkStorage;
  let removed: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bulk-prune-'));
    storage = folderStorage(dir);
    await put(storage, { dataset: 'certificates', kind: 'delta', day: '2026-08-30' });
    await put(storage, { dataset: 'certificates', kind: 'delta', day: '2026-08-31' });
    await put(storage, { dataset: 'certificates', kind: 'delta', day: '2026-11-28' });
    await put(storage, { dataset: 'certificates', kind: 'snapshot', county: 'alachua', taxYear: 2023 });
    await put(storage, { dataset: 'certificates', kind: 'snapshot', county: 'broward', taxYear: 2022 });
    await put(storage, { dataset: 'certificate-sales', kind: 'snapshot', county: 'broward', taxYear: 2022 });
    await put(storage, { dataset: 'certificate-sales', kind: 'snapshot', county: 'alachua', taxYear: 2023 });
    await put(storage, { dataset: 'lands-available', kind: 'snapshot', county: 'alachua', taxYear: 2019 });
    await put(storage, { dataset: 'lands-available', kind: 'snapshot', county: 'alachua', taxYear: 2018 });
    await put(storage, { dataset: 'certificate-sales', kind: 'delta', day: '2026-08-30' });
    await put(storage, { dataset: 'counties', kind: 'snapshot' });
    await put(storage, { dataset: 'holders', kind: 'snapshot' });
    removed = await pruneBulkFiles(storage, {
      deltasFrom: deltaCutoff('2026-11-29', 90),
      snapshotScopes: {
        datasets: ['certificates', 'certificate-sales', 'lands-available'],
        scopes: new Set([
          snapshotScope('certificates', 'alachua', 2023),
          snapshotScope('certificate-sales', 'alachua', 2023),
          snapshotScope('lands-available', 'alachua', 2019),
        ]),
      },
      // The holders index found empty: its one file goes; the counties file stays.
      emptyDatasets: ['holders'],
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the cutoff is the retention’s days before today, in calendar days', () => {
    expect(deltaCutoff('2026-11-29', 90)).toBe('2026-08-31');
    expect(deltaCutoff('2026-03-01', 1)).toBe('2026-02-28');
  });

  it('removes the deltas before the cutoff and the snapshots of scopes the build no longer found, with their entries', async () => {
    expect(removed.sort()).toEqual([
      'certificate-sales.2026-08-30.delta.ndjson.gz',
      'certificate-sales.broward.2022.snapshot.ndjson.gz',
      'certificates.2026-08-30.delta.ndjson.gz',
      'certificates.broward.2022.snapshot.ndjson.gz',
      'holders.snapshot.ndjson.gz',
      'lands-available.alachua.2018.snapshot.ndjson.gz',
    ]);
    for (const name of removed) {
      expect(existsSync(join(dir, name))).toBe(false);
      expect(existsSync(join(dir, manifestName(name)))).toBe(false);
    }
  });

  it('keeps the deltas from the cutoff on, the scopes still built and the single files', async () => {
    expect((await readEntries(storage)).map((e) => e.name)).toEqual([
      'certificate-sales.alachua.2023.snapshot.ndjson.gz',
      'certificates.2026-08-31.delta.ndjson.gz',
      'certificates.2026-11-28.delta.ndjson.gz',
      'certificates.alachua.2023.snapshot.ndjson.gz',
      'counties.snapshot.ndjson.gz',
      'lands-available.alachua.2019.snapshot.ndjson.gz',
    ]);
  });

  it('removes no snapshot when not told which scopes hold rows (a narrowed build)', async () => {
    expect(await pruneBulkFiles(storage, {})).toEqual([]);
  });
});
