import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropIndices } from '../../../../indexer/indices/describe.ts';
import { ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { reindex } from '../../../../indexer/indices/reindex.ts';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { joinParcelsOntoCertificates } from '../../../../indexer/parcels/join-certificates.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { createOpenSearch } from '../../../../services/engine/client.ts';
import { testContext } from '../../../helpers/context.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * Certificates indexed before the parcel layer (mapping v6) have no owner type, city, ZIP or
 * parcel facts, and _reindex copies them as they are: the reindex of certificates runs the parcel
 * join over the new index before the alias moves (taxcert reindex passes it in afterCopy).
 */
const ctx = testContext(import.meta.url);
const prefix = ctx.config.INDEX_PREFIX;
const alias = aliasName(prefix, 'certificates');
const TOTAL = 2300;
let client: Client;

beforeAll(async () => {
  client = createOpenSearch(ctx.config);
  await ensureIndices(client, prefix, 0);
  const writer = createBulkWriter(client, { index: alias, refresh: true });
  for (let n = 0; n < TOTAL; n++) {
    const doc = sampleCertificate({}, n);
    await writer.add(doc.id, doc);
  }
  expect((await writer.flush()).created).toBe(TOTAL);
  // A parcel row for every tenth certificate's parcel.
  const parcels = createBulkWriter(client, { index: aliasName(prefix, 'parcels'), refresh: true });
  for (let n = 0; n < TOTAL; n += 10) {
    const c = sampleCertificate({}, n);
    const id = `alachua:${c.parcel_id_normalized}`;
    await parcels.add(id, {
      id,
      county_slug: 'alachua',
      county_name: 'Alachua',
      parcel_id: c.parcel_id,
      parcel_id_normalized: c.parcel_id_normalized,
      assessment_year: 2025,
      just_value: 1000 + n,
      land_sqft: 5000,
      use_code: '001',
      homestead: n % 20 === 0,
      situs_address: `${100 + n} NW ST`,
      situs_city: 'GAINESVILLE',
      situs_zip: '32601',
      location: { lat: 29.65, lon: -82.33 },
      ingested_at: '2026-01-01T00:00:00.000Z',
    });
  }
  await parcels.flush();
});

afterAll(async () => {
  await dropIndices(client, prefix);
  await client.close();
  ctx.cleanupFiles();
});

const count = async (query: object) => (await client.count({ index: alias, body: { query } as never })).body.count;

describe('reindex of certificates without parcel fields', () => {
  it('gives every certificate its owner type, city and ZIP, and its parcel row facts, before the swap', async () => {
    const result = await reindex(client, prefix, 'certificates', {
      pollIntervalMs: 50,
      afterCopy: (index) => joinParcelsOntoCertificates(client, prefix, { index }),
    });
    expect(result.documents).toBe(TOTAL);
    expect(await count({ bool: { must_not: [{ exists: { field: 'owner_type' } }] } })).toBe(0);
    expect(await count({ term: { situs_city: 'GAINESVILLE' } })).toBe(TOTAL);
    expect(await count({ exists: { field: 'location' } })).toBe(TOTAL / 10);
    expect(await count({ term: { owner_type: 'entity' } })).toBe(Math.floor(TOTAL / 3));
    const doc = (await client.get({ index: alias, id: sampleCertificate({}, 20).id })).body._source as Record<string, unknown>;
    expect(doc).toMatchObject({ just_value: 1020, homestead: true, location: { lat: 29.65, lon: -82.33 }, situs_zip: '32601' });
  });

  it('a second join finds nothing to update', async () => {
    expect(await joinParcelsOntoCertificates(client, prefix, {})).toEqual({ updated: 0 });
  });
});
