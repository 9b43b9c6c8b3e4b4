import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countCertificates } from '../../../indexer/certificates/bookkeeping.ts';
import { aliasName } from '../../../services/domain/datasets.ts';
import { enqueueFiles } from '../../../services/process/ingest-runner.ts';
import { getCounty } from '../../../services/control/ingest/counties.ts';
import { getDatasetState } from '../../../services/control/ingest/freshness.ts';
import { countQuarantine, listQuarantine } from '../../../services/control/ingest/quarantine.ts';
import { getSource } from '../../../services/control/ingest/sources.ts';
import { readFreshness } from '../../../services/engine/freshness.ts';
import { openTestRuntime, type TestRuntime } from '../../helpers/runtime.ts';

const file = (name: string) => fileURLToPath(new URL(`../../../fixtures/files/lienport-csv/${name}`, import.meta.url));

describe('certificate ingest through the queue, worker and real OpenSearch', () => {
  let t: TestRuntime;
  const ingest = (name: string, county = 'miami-dade') =>
    enqueueFiles(t.runtime, [{ dataset: 'certificates', file: file(name), vendor: 'lienport', county, taxYear: 2024 }], {
      wait: true,
    }).then((outcomes) => outcomes[0]!);
  const total = () => countCertificates(t.runtime.opensearch, t.config.INDEX_PREFIX);
  const ids = async () => {
    const res = await t.runtime.opensearch.search({
      index: aliasName(t.config.INDEX_PREFIX, 'certificates'),
      body: { size: 100, _source: false, sort: [{ certificate_number: 'asc' }] },
    });
    return (res.body.hits.hits as { _id: string }[]).map((h) => h._id);
  };

  beforeAll(async () => {
    t = await openTestRuntime(import.meta.url);
  });
  afterAll(() => t.teardown());

  it('loads a good file and keeps county, source, freshness and the sale summary in step with search', async () => {
    const outcome = await ingest('good.csv');
    expect(outcome.status).toBe('succeeded');
    expect(outcome.result).toMatchObject({ rowsRead: 5, indexed: 5, updated: 0, quarantined: 0, format: 'lienport-csv' });

    const searchTotal = await countCertificates(t.runtime.opensearch, t.config.INDEX_PREFIX, 'miami-dade');
    expect(searchTotal).toBe(5);
    const county = (await getCounty(t.runtime.sql, 'miami-dade'))!;
    expect(county.certificateCount).toBe(searchTotal);
    expect(county.coverageStatus).toBe('certificate_level');
    expect(county.lastImportAt).not.toBeNull();

    const source = (await getSource(t.runtime.sql, 'miami-dade', 2024))!;
    expect(source.vendor).toBe('lienport');
    expect(source.lastSuccessAt).not.toBeNull();
    expect(source.lastError).toBeNull();
    expect((await getDatasetState(t.runtime.sql, 'certificates')).lastIngestedAt).not.toBeNull();
    const freshness = await readFreshness(t.runtime.opensearch, t.runtime.sql, t.config.INDEX_PREFIX);
    expect(freshness).toMatchObject({ certificate_count: await total(), latest_tax_year: 2024 });
    expect(freshness.last_ingested_at).toBe(county.lastImportAt);
    expect(freshness.last_source_success_at).toBe(source.lastSuccessAt);

    const sale = await t.runtime.opensearch.search({
      index: aliasName(t.config.INDEX_PREFIX, 'sales'),
      body: { query: { term: { county_slug: 'miami-dade' } } },
    });
    expect(sale.body.hits.hits[0]?._source).toMatchObject({
      county_slug: 'miami-dade',
      county_name: 'Miami-Dade',
      tax_year: 2024,
      sale_date: '2025-05-28',
      vendor: 'lienport',
      certificates_offered: 5,
      certificates_sold: 3, // 104 was struck to the county, 105 is still advertised
      struck_to_county: 1,
      face_value_offered: 105322.19,
      face_value_sold: 6246.56,
      average_bid_rate: 2.92, // (0.25 + 3 + 5.5) / 3
      status: 'completed',
    });
  });

  it('re-ingesting the same file changes no id and duplicates nothing', async () => {
    const before = await ids();
    const outcome = await ingest('good.csv');
    expect(outcome.result).toMatchObject({ rowsRead: 5, indexed: 0, updated: 5, quarantined: 0 });
    expect(await ids()).toEqual(before);
    expect(await total()).toBe(5);
    expect((await readFreshness(t.runtime.opensearch, t.runtime.sql, t.config.INDEX_PREFIX)).certificate_count).toBe(5);
  });

  it('quarantines bad rows with every reason and loads the rest', async () => {
    const outcome = await ingest('bad-rows.csv');
    expect(outcome.result).toMatchObject({ rowsRead: 6, indexed: 1, quarantined: 5 });
    const rows = await listQuarantine(t.runtime.sql, { file: file('bad-rows.csv') });
    expect(rows.map((r) => r.line)).toEqual([2, 3, 4, 5, 6]);
    expect(rows[0]!.reasons).toEqual(['face_amount: "$12,3x4" is not a dollar amount']);
    expect(rows[2]!.reasons).toEqual(['status: "PENDING" is not a known status', 'struck_to_county: "X" is not Y or N']);
    expect(rows[0]!.raw).toContain('$12,3x4');
    expect(await total()).toBe(6);

    // A retry of the same file keeps one quarantine row per line.
    await ingest('bad-rows.csv');
    expect(await countQuarantine(t.runtime.sql, { file: file('bad-rows.csv') })).toBe(5);
  });

  it.each([
    ['empty.csv', 'empty_file'],
    ['header-only.csv', 'empty_file'],
    ['truncated.csv', 'truncated_file'],
    ['unknown-format.csv', 'unknown_format'],
    ['wrong-county.csv', 'wrong_county'],
  ])('rejects %s (%s) and changes nothing indexed', async (name, code) => {
    const before = await total();
    const quarantined = await countQuarantine(t.runtime.sql);
    const outcome = await ingest(name);
    expect(outcome.status).toBe('failed');
    expect(outcome.error).toMatch(new RegExp(`^${code}: `));
    expect(await total()).toBe(before);
    expect(await countQuarantine(t.runtime.sql)).toBe(quarantined);
    expect((await getSource(t.runtime.sql, 'miami-dade', 2024))!.lastError).toMatch(new RegExp(`^${code}: `));
  });
});
