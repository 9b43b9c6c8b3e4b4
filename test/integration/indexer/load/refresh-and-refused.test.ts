import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readLines } from '../../../../indexer/adapters/read-lines.ts';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { RefreshGroup } from '../../../../indexer/load/refresh-group.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { BulkSpool } from '../../../../indexer/load/spool.ts';
import { type DatasetFormat, type HeldRow, indexFile, validateFile } from '../../../../indexer/load/two-pass-load.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

let t: TestRuntime;
let alias: string;
const count = async () => (await t.runtime.opensearch.count({ index: alias })).body.count;

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
  alias = aliasName(t.config.INDEX_PREFIX, 'certificates');
});
afterAll(() => t.teardown());

beforeEach(async () => {
  await t.runtime.opensearch.deleteByQuery({ index: alias, body: { query: { match_all: {} } }, refresh: true });
  // Refresh off, as in a worker's bulk mode: only an explicit refresh makes a write searchable.
  await t.runtime.opensearch.indices.putSettings({ index: alias, body: { index: { refresh_interval: '-1' } } });
});

/** The test's client with its refreshes counted: the group asks for them, the real index answers. */
function countingRefreshes(): { client: Client; refreshes: () => number } {
  let n = 0;
  const real = t.runtime.opensearch;
  const indices = {
    refresh: (params: Parameters<typeof real.indices.refresh>[0]) => {
      n += 1;
      return real.indices.refresh(params);
    },
  };
  return { client: { indices } as unknown as Client, refreshes: () => n };
}

async function write(n: number, from = 0): Promise<void> {
  const writer = createBulkWriter(t.runtime.opensearch, { index: alias });
  for (let i = from; i < from + n; i++) {
    const doc = sampleCertificate({}, i);
    await writer.add(doc.id, doc);
  }
  await writer.flush();
}

describe('RefreshGroup on a real index', () => {
  it('refreshes at once for a file when the worker is idle', async () => {
    const group = new RefreshGroup(t.runtime.opensearch, alias, { maxWaiting: 5, maxDelayMs: 60_000 });
    await write(3);
    expect(await count()).toBe(0);
    await group.request(true);
    expect(await count()).toBe(3);
  });

  it('holds files back until enough wait, then one refresh serves them all', async () => {
    const counted = countingRefreshes();
    const group = new RefreshGroup(counted.client, alias, { maxWaiting: 3, maxDelayMs: 60_000 });
    const settled: number[] = [];
    await write(2, 0);
    const a = group.request(false).then(() => settled.push(1));
    await write(2, 2);
    const b = group.request(false).then(() => settled.push(2));
    // Two files wait, one short of company: no refresh was asked for, so none can have answered.
    expect(counted.refreshes()).toBe(0);
    expect(settled).toEqual([]);
    expect(await count()).toBe(0);
    await write(2, 4);
    await group.request(false);
    await Promise.all([a, b]);
    expect(counted.refreshes()).toBe(1);
    expect(settled.sort()).toEqual([1, 2]);
    expect(await count()).toBe(6);
  });

  // When the delay ends is timed on a fake clock in test/unit/indexer/load/refresh-group.test.ts.
  it('refreshes after maxDelayMs when no company comes', async () => {
    const counted = countingRefreshes();
    const group = new RefreshGroup(counted.client, alias, { maxWaiting: 10, maxDelayMs: 100 });
    await write(4);
    const done = group.request(false);
    expect(counted.refreshes()).toBe(0);
    await done;
    expect(counted.refreshes()).toBe(1);
    expect(await count()).toBe(4);
  });

  it('passes a failed refresh on to every file waiting for it', async () => {
    const group = new RefreshGroup(t.runtime.opensearch, `${alias}-missing`, { maxWaiting: 2, maxDelayMs: 60_000 });
    const a = group.request(false);
    const b = group.request(false);
    await expect(a).rejects.toMatchObject({ meta: { statusCode: 404 } });
    await expect(b).rejects.toMatchObject({ meta: { statusCode: 404 } });
  });
});

describe('bulk writer with batches cut by the spool', () => {
  it('sends prepared batches and counts created, then updated on a second send', async () => {
    const spool = new BulkSpool('it-batches', { batchDocs: 40 });
    try {
      for (let i = 0; i < 100; i++) {
        const doc = sampleCertificate({}, i);
        await spool.add(doc.id, doc);
      }
      await spool.close();
      for (const expected of [
        { created: 100, updated: 0 },
        { created: 0, updated: 100 },
      ]) {
        const writer = createBulkWriter(t.runtime.opensearch, { index: alias, refresh: true });
        for await (const batch of spool.batches()) await writer.addBatch(batch);
        expect(await writer.flush()).toEqual({ ...expected, failed: 0, failures: [] });
      }
      expect(await count()).toBe(100);
    } finally {
      await spool.remove();
    }
  });
});

describe('a document the engine refuses after it passed validation', () => {
  /** One JSON record per line, taken as it stands: lets a record the mapping refuses reach the engine. */
  const jsonLines: DatasetFormat<CertificateRecord> = {
    dataset: 'certificates',
    format: 'test-json-lines',
    async *rows(source) {
      for await (const l of readLines(source, 'test-json-lines')) yield { line: l.line, raw: l.text, fields: {} };
    },
    build: (row) => ({ ok: true, record: JSON.parse(row.raw) as CertificateRecord }),
    repeated: (_record, firstLine) => ({ field: 'row', problem: `listed again (first on line ${firstLine})` }),
  };

  it('is quarantined with its line, its document and the engine reason; the rest load', async () => {
    const docs: object[] = Array.from({ length: 5 }, (_, i) => sampleCertificate({}, i));
    docs[1] = { ...docs[1], not_in_mapping: 'x' };
    docs[3] = { ...docs[3], face_amount: 'a lot' };
    const file = join(t.config.DATABASE_PATH, '..', 'refused.jsonl');
    writeFileSync(file, `${docs.map((d) => JSON.stringify(d)).join('\n')}\n`);

    const deps = { opensearch: t.runtime.opensearch, prefix: t.config.INDEX_PREFIX };
    const validated = await validateFile(file, 'job-refused', jsonLines, deps);
    const quarantined: HeldRow[] = [];
    let outcome: Awaited<ReturnType<typeof indexFile>>;
    try {
      expect(validated).toMatchObject({ rowsRead: 5, valid: 5, refused: 0 });
      outcome = await indexFile(validated, 'certificates', deps);
      for await (const row of validated.refusedRows()) quarantined.push(row);
    } finally {
      await validated.discard();
    }

    expect(outcome).toMatchObject({ rowsRead: 5, indexed: 3, updated: 0, quarantined: 2 });
    expect(await count()).toBe(3);
    expect(quarantined.map((q) => q.line)).toEqual([2, 4]);
    expect(quarantined.map((q) => JSON.parse(q.raw))).toEqual([docs[1], docs[3]]);
    expect(quarantined[0]!.reasons).toEqual([
      { field: 'index', problem: expect.stringMatching(/^strict_dynamic_mapping_exception: .*not_in_mapping/) },
    ]);
    expect(quarantined[1]!.reasons).toEqual([
      { field: 'index', problem: expect.stringMatching(/^mapper_parsing_exception: .*face_amount/) },
    ]);
  });
});
