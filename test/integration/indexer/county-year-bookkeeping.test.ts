// @module-tag postgres
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCertificates } from '../../../indexer/certificates/bookkeeping.ts';
import { enqueueFiles } from '../../../services/process/ingest-runner.ts';
import { getCounty, seedCounties } from '../../../services/control/ingest/counties.ts';
import { getSource } from '../../../services/control/ingest/sources.ts';
import { aliasName } from '../../../services/domain/datasets.ts';
import { fixtureFile } from '../../helpers/file-ingest.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';

// A second vendor's file for a county and tax year left the sale row, the county row and the
// source row naming different vendors; and a file that failed beside a good one in the same
// batch left the source's lastError empty. Through the queue and the worker, on the real engine.

let t: TestRuntime;
let dir: string;
beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
  dir = mkdtempSync(join(tmpdir(), 'taxcert-county-year-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.teardown();
});

type Job = { file: string; vendor: string; county: string; taxYear: number };
const ingest = (jobs: Job[]) =>
  enqueueFiles(
    t.runtime,
    jobs.map((j) => ({ dataset: 'certificates' as const, ...j })),
    { wait: true },
  );

async function saleOf(county: string, taxYear: number) {
  const res = await t.runtime.opensearch.search({
    index: aliasName(t.config.INDEX_PREFIX, 'sales'),
    body: { query: { bool: { filter: [{ term: { county_slug: county } }, { term: { tax_year: taxYear } }] } } },
  });
  return (res.body.hits.hits as { _source: { vendor: string; certificates_offered: number } }[])[0]?._source;
}

describe('a batch with a failed file', () => {
  it('keeps the failed file’s error on the source, though the county-year had no source when it failed', async () => {
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, '');
    const outcomes = await ingest([
      { file: empty, vendor: 'lienport', county: 'miami-dade', taxYear: 2024 },
      { file: fixtureFile('lienport-csv', 'good.csv'), vendor: 'lienport', county: 'miami-dade', taxYear: 2024 },
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['failed', 'succeeded']);
    const source = (await getSource(t.runtime.sql, 'miami-dade', 2024))!;
    expect(source.lastSuccessAt).not.toBeNull();
    expect(source.lastError).toBe('empty_file: the county file holds no rows');

    // Another good file does not hide it either; the failed file loading at last clears it.
    const [again] = await ingest([
      { file: fixtureFile('bidvault-tsv', 'good.tsv'), vendor: 'bidvault', county: 'miami-dade', taxYear: 2024 },
    ]);
    expect(again?.status).toBe('succeeded');
    expect((await getSource(t.runtime.sql, 'miami-dade', 2024))!.lastError).toBe('empty_file: the county file holds no rows');
    copyFileSync(fixtureFile('lienport-csv', 'good.csv'), empty);
    const [fixed] = await ingest([{ file: empty, vendor: 'lienport', county: 'miami-dade', taxYear: 2024 }]);
    expect(fixed?.status, fixed?.error).toBe('succeeded');
    expect((await getSource(t.runtime.sql, 'miami-dade', 2024))!.lastError).toBeNull();
  });
});

describe('one county-year, files of two vendors', () => {
  it('counts every certificate loaded, and the sale, the source and the county name the latest file’s vendor', async () => {
    const [first] = await ingest([
      { file: fixtureFile('lienport-csv', 'good.csv'), vendor: 'lienport', county: 'miami-dade', taxYear: 2024 },
    ]);
    expect(first?.status, first?.error).toBe('succeeded');
    const [second] = await ingest([
      { file: fixtureFile('bidvault-tsv', 'good.tsv'), vendor: 'bidvault', county: 'miami-dade', taxYear: 2024 },
    ]);
    expect(second?.status, second?.error).toBe('succeeded');

    const searchable = await countCertificates(t.runtime.opensearch, t.config.INDEX_PREFIX, 'miami-dade');
    expect(searchable).toBe(10); // five of each vendor, none replacing another
    const sale = (await saleOf('miami-dade', 2024))!;
    const source = (await getSource(t.runtime.sql, 'miami-dade', 2024))!;
    const county = (await getCounty(t.runtime.sql, 'miami-dade'))!;
    expect({ sale: sale.vendor, source: source.vendor, county: county.taxCertificateVendor }).toEqual({
      sale: 'bidvault',
      source: 'bidvault',
      county: 'bidvault',
    });
    expect({ sale: sale.certificates_offered, county: county.certificateCount }).toEqual({ sale: searchable, county: searchable });

    // A restart seeds the directory again: the vendor of a county with certificates stays what its data says.
    await seedCounties(t.runtime.sql, t.runtime.registry);
    expect((await getCounty(t.runtime.sql, 'miami-dade'))!.taxCertificateVendor).toBe('bidvault');
  });
});
