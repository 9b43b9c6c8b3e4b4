import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillHolderGroups } from '../../../../indexer/certificates/backfill-holder-groups.ts';
import { dropIndices } from '../../../../indexer/indices/describe.ts';
import { ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { reindex } from '../../../../indexer/indices/reindex.ts';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { holderGroup, loadHolderAliases } from '../../../../services/domain/holder-groups.ts';
import { ID_ORDER_PAINLESS, idOrder } from '../../../../services/domain/ids.ts';
import { createOpenSearch } from '../../../../services/engine/client.ts';
import { testContext } from '../../../helpers/context.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * Certificates indexed before holder groups (mapping v4) have none, nor (before v6) the
 * id's order twin, and _reindex copies them as they are: the reindex of certificates fills
 * both on the new index before the alias moves (the taxcert reindex command passes
 * ID_ORDER_PAINLESS as the copy's script and backfillHolderGroups as afterCopy).
 */
const ctx = testContext(import.meta.url);
const prefix = ctx.config.INDEX_PREFIX;
const alias = aliasName(prefix, 'certificates');
const TOTAL = 2500;
const aliases = loadHolderAliases();
let client: Client;

beforeAll(async () => {
  client = createOpenSearch(ctx.config);
  await ensureIndices(client, prefix, 0);
  const writer = createBulkWriter(client, { index: alias, refresh: true });
  // Written without group fields, as a v4 index holds them; a few spellings of one family.
  const names = ['FL TAX LIEN FUND 11 LLC', 'Fl Tax Lien Fund 3, L.L.C.', 'JOHN SMITH', 'JOHN SMITH II'];
  for (let n = 0; n < TOTAL; n++) {
    const doc = sampleCertificate({ holder_name: names[n % names.length]! }, n);
    await writer.add(doc.id, doc);
  }
  expect((await writer.flush()).created).toBe(TOTAL);
});

afterAll(async () => {
  await dropIndices(client, prefix);
  await client.close();
  ctx.cleanupFiles();
});

describe('reindex of certificates without holder groups', () => {
  it('gives every certificate its group before the swap, by the ingest rule', async () => {
    const result = await reindex(client, prefix, 'certificates', {
      pollIntervalMs: 50,
      script: ID_ORDER_PAINLESS,
      afterCopy: (index) => backfillHolderGroups(client, index, aliases),
    });
    expect(result.documents).toBe(TOTAL);
    const missing = await client.count({
      index: alias,
      body: { query: { bool: { must_not: [{ exists: { field: 'holder_group_id' } }] } } } as never,
    });
    expect(missing.body.count).toBe(0);
    const res = await client.search({ index: alias, body: { size: 50, sort: [{ id: 'asc' }] } as never });
    for (const hit of res.body.hits.hits as unknown as { _source: Parameters<typeof holderGroup>[0] & Record<string, unknown> }[]) {
      const expected = holderGroup(hit._source, aliases);
      expect(hit._source).toMatchObject(expected);
    }
    const groups = await client.search({
      index: alias,
      body: { size: 0, aggs: { g: { terms: { field: 'holder_group_id', size: 10 } } } } as never,
    });
    expect((groups.body.aggregations as { g: { buckets: unknown[] } }).g.buckets).toHaveLength(3);
    // The id's order twin (v6), computed by the copy's script exactly as ingest computes it.
    const all = await client.search({ index: alias, body: { size: TOTAL, _source: ['id', 'id_order'] } as never });
    const docs = (all.body.hits.hits as unknown as { _source: { id: string; id_order: number } }[]).map((h) => h._source);
    expect(docs).toHaveLength(TOTAL);
    for (const d of docs) expect(d.id_order, d.id).toBe(idOrder(d.id));
    // Nothing is left to fill: a second run updates nothing.
    expect(await backfillHolderGroups(client, alias, aliases)).toBe(0);
  });
});
