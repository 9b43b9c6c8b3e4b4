import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCertificates } from '../../../indexer/certificates/bookkeeping.ts';
import { aliasName } from '../../../services/domain/datasets.ts';
import type { IngestJobData } from '../../../indexer/queue.ts';
import { enqueueFiles } from '../../../services/process/ingest-runner.ts';
import { getDatasetState } from '../../../services/control/ingest/freshness.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';

const file = (path: string) => fileURLToPath(new URL(`../../../fixtures/files/${path}`, import.meta.url));

/** Holder files and county lands-available lists go through the same queue and worker as certificates. */
describe('ingest --dataset holders | lands-available through the worker', () => {
  let t: TestRuntime;
  const count = async (dataset: 'holders' | 'lands-available') => {
    const res = await t.runtime.opensearch.count({ index: aliasName(t.config.INDEX_PREFIX, dataset) });
    return res.body.count;
  };
  const ingest = (dataset: IngestJobData['dataset'], path: string) =>
    enqueueFiles(t.runtime, [{ dataset, file: file(path), vendor: 'county_local', county: 'miami-dade', taxYear: 2024 }], {
      wait: true,
    }).then((o) => o[0]!);

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
  });
  afterAll(() => t.teardown());

  it('loads a county lands-available list and leaves certificates alone', async () => {
    const outcome = await ingest('lands-available', 'lands-available/good.csv');
    expect(outcome.status).toBe('succeeded');
    expect(outcome.result!.indexed).toBeGreaterThan(0);
    expect(await count('lands-available')).toBe(outcome.result!.indexed);
    expect(await countCertificates(t.runtime.opensearch, t.config.INDEX_PREFIX)).toBe(0);
    expect((await getDatasetState(t.runtime.sql, 'lands_available')).lastIngestedAt).not.toBeNull();
  });

  it('loads a holder file', async () => {
    const outcome = await ingest('holders', 'holders/good.csv');
    expect(outcome.status).toBe('succeeded');
    expect(await count('holders')).toBe(outcome.result!.indexed);
  });

  it('rejects a truncated lands-available list without indexing any of it', async () => {
    const before = await count('lands-available');
    const outcome = await ingest('lands-available', 'lands-available/truncated.csv');
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(/^truncated_file: /);
    expect(await count('lands-available')).toBe(before);
  });
});
