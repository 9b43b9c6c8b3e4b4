import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { dropIndices } from '../../../../indexer/indices/describe.ts';
import { ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { createOpenSearch } from '../../../../services/engine/client.ts';
import { testContext } from '../../../helpers/context.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

const ctx = testContext(import.meta.url);
const prefix = ctx.config.INDEX_PREFIX;
const index = aliasName(prefix, 'certificates');
let client: Client;

const dashed = sampleCertificate({ parcel_id: '12-34-56', certificate_number: '2023/00017', owner_name: 'José Núñez' }, 1);
const plain = sampleCertificate({ parcel_id: '654321', owner_name: 'Mary Smith', holder_name: 'Acme Tax Fund LLC' }, 2);
const other = sampleCertificate(
  {
    owner_name: 'Oak Grove Holdings Inc',
    site_address_full: '4500 SW Archer Rd, Gainesville, FL 32608',
    holder_name: 'Gator Capital',
  },
  3,
);

async function ids(query: object): Promise<string[]> {
  const res = await client.search({ index, body: { query, size: 10 } as never });
  return res.body.hits.hits.map((h) => h._id as string).sort();
}

beforeAll(async () => {
  client = createOpenSearch(ctx.config);
  await ensureIndices(client, prefix, 0);
  const writer = createBulkWriter(client, { index, refresh: true });
  for (const doc of [dashed, plain, other]) await writer.add(doc.id, doc);
  const totals = await writer.flush();
  expect(totals).toMatchObject({ created: 3, failed: 0 });
});

afterAll(async () => {
  await dropIndices(client, prefix);
  await client.close();
  ctx.cleanupFiles();
});

describe('certificate mapping', () => {
  it('rejects a document with an unknown field (dynamic strict) as a per-item failure', async () => {
    const writer = createBulkWriter(client, { index, refresh: true });
    const bad = sampleCertificate({}, 99);
    await writer.add(bad.id, { ...bad, surprise: 'field' });
    const good = sampleCertificate({}, 100);
    await writer.add(good.id, good);
    const totals = await writer.flush();
    expect(totals.created).toBe(1);
    expect(totals.failed).toBe(1);
    expect(totals.failures).toEqual([
      { id: bad.id, status: 400, type: 'strict_dynamic_mapping_exception', reason: expect.stringContaining('surprise') },
    ]);
    await client.delete({ index, id: good.id, refresh: true });
  });

  it('matches parcel ids without punctuation, in both directions', async () => {
    expect(await ids({ term: { parcel_id: '123456' } })).toEqual([dashed.id]);
    expect(await ids({ term: { parcel_id: '12 34-56' } })).toEqual([dashed.id]);
    expect(await ids({ term: { parcel_id: '65-43-21' } })).toEqual([plain.id]);
    expect(await ids({ term: { parcel_id_normalized: '123456' } })).toEqual([dashed.id]);
    expect(await ids({ term: { 'parcel_id.raw': '12-34-56' } })).toEqual([dashed.id]);
    expect(await ids({ term: { 'parcel_id.raw': '123456' } })).toEqual([]);
  });

  it('matches certificate numbers without punctuation or case', async () => {
    expect(await ids({ term: { certificate_number: '202300017' } })).toEqual([dashed.id]);
    expect(await ids({ term: { certificate_number: '2023-00017' } })).toEqual([dashed.id]);
  });

  it('finds owners and addresses by free text, ignoring case and accents', async () => {
    expect(await ids({ match: { owner_name: { query: 'jose nunez', operator: 'and' } } })).toEqual([dashed.id]);
    expect(await ids({ match: { owner_name: 'OAK GROVE' } })).toEqual([other.id]);
    expect(await ids({ match: { site_address_full: { query: 'archer rd', operator: 'and' } } })).toEqual([other.id]);
  });

  it('filters holder names case-insensitively and finds them by words', async () => {
    expect(await ids({ term: { holder_name: 'ACME TAX FUND LLC' } })).toEqual([plain.id]);
    expect(await ids({ match: { 'holder_name.text': 'acme' } })).toEqual([plain.id]);
  });

  it('keeps money exact to the cent and dates as dates', async () => {
    const res = await client.search({
      index,
      body: {
        size: 0,
        query: { range: { sale_date: { gte: '2024-06-01', lte: '2024-06-01' } } },
        aggs: { face: { sum: { field: 'face_amount' } } },
      } as never,
    });
    const expected = dashed.face_amount + plain.face_amount + other.face_amount;
    const aggs = res.body.aggregations as { face: { value: number } };
    expect(aggs.face.value).toBeCloseTo(expected, 2);
  });
});
