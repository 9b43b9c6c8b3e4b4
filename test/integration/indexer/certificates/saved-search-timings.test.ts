import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoadResources } from '../../../../indexer/load/load-resources.ts';
import { processFile } from '../../../../indexer/process-file.ts';
import type { IngestJob } from '../../../../indexer/queue.ts';
import { ensureSavedSearchIndex, putSavedSearchQuery, savedSearchIndexName } from '../../../../services/engine/saved-search-index.ts';
import { alachuaCertificates, alachuaJob, writeAlachuaFile } from '../../../helpers/event-files.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * The saved searches' share of a job in the worker's "file ingested" line (the ingest benchmark
 * divides it by the changed certificates): the percolate requests of a changed file, and the
 * match counts of a first load.
 */

type Timings = Record<string, number>;

describe("the saved searches' phases in the job's timings", () => {
  let t: TestRuntime;
  let dir: string;
  const lines: string[] = [];
  let n = 0;

  /** One job through processFile, as the worker runs it; the timings its "file ingested" line logged. */
  const load = async (job: Omit<IngestJob, 'jobId'>): Promise<Timings> => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const { runtime, config } = t;
    await processFile(
      { ...job, jobId: `timings-${++n}` },
      {
        opensearch: runtime.opensearch,
        sql: runtime.sql,
        registry: runtime.registry,
        logger,
        prefix: config.INDEX_PREFIX,
        parcelBaseUrl: config.PARCEL_BASE_URL,
        load: createLoadResources(runtime.opensearch, { prefix: config.INDEX_PREFIX, replicas: 0, concurrency: 1, logger }),
      },
    );
    const ingested = lines.filter((l) => l.includes('"file ingested"')).map((l) => JSON.parse(l) as { timingsMs: Timings });
    return ingested.at(-1)!.timingsMs;
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'taxcert-ss-timings-'));
  });
  afterAll(async () => {
    // The percolator index is not named like the datasets' indices, so the teardown's pattern misses it.
    await t.runtime.opensearch.indices.delete({ index: savedSearchIndexName(t.config.INDEX_PREFIX) }, { ignore: [404] });
    rmSync(dir, { recursive: true, force: true });
    await t.teardown();
  });

  it('with no saved search a changed file percolates nothing, and its line says so', async () => {
    await load(alachuaJob(await writeAlachuaFile(dir, 'first-2022.csv', alachuaCertificates(20, 0, 2022), 2022), 2022));
    const changed = alachuaCertificates(20, 5, 2022);
    const timings = await load(alachuaJob(await writeAlachuaFile(dir, 'second-2022.csv', changed, 2022), 2022));
    expect(timings).toHaveProperty('bookkeep');
    expect(timings).not.toHaveProperty('percolate');
    expect(timings).not.toHaveProperty('matchesLoaded');
  });

  it('a first load with searches in place times their match counts; a changed file times its percolation; each only its own', async () => {
    const { opensearch } = t.runtime;
    await ensureSavedSearchIndex(opensearch, t.config.INDEX_PREFIX, 0);
    await putSavedSearchQuery(opensearch, t.config.INDEX_PREFIX, { id: 'ss_timings', revision: 1, query: { match_all: {} } });

    const first = await load(alachuaJob(await writeAlachuaFile(dir, 'first.csv', alachuaCertificates(20))));
    expect(first.matchesLoaded).toBeGreaterThanOrEqual(0);
    expect(first).not.toHaveProperty('percolate');

    const records = alachuaCertificates(20, 5);
    records[9] = sampleCertificate({ owner_name: 'NEW OWNER LLC' }, 9);
    const second = await load(alachuaJob(await writeAlachuaFile(dir, 'second.csv', records)));
    expect(second.percolate).toBeGreaterThanOrEqual(0);
    expect(second).not.toHaveProperty('matchesLoaded');
  });
});
