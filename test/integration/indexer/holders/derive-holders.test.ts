import { fileURLToPath } from 'node:url';
import type { Client } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { deriveHolders } from '../../../../indexer/holders/derive-holders.ts';
import { holderId } from '../../../../services/domain/ids.ts';
import { dropIndices } from '../../../../indexer/indices/describe.ts';
import { ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { createLoadResources } from '../../../../indexer/load/load-resources.ts';
import { processFile } from '../../../../indexer/process-file.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';
import type { Sql } from '../../../../services/control/db/sql.ts';
import { openTestControl } from '../../../helpers/control.ts';
import { createOpenSearch } from '../../../../services/engine/client.ts';
import { createLogger } from '../../../../services/logger.ts';
import { testContext } from '../../../helpers/context.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

const ctx = testContext(import.meta.url);
const prefix = ctx.config.INDEX_PREFIX;
const registry = loadRegistry();
const AT = new Date('2025-03-04T05:06:07.000Z');
let client: Client;
let sql: Sql;

/** A certificate whose holder_id follows its holder_name the way the worker derives it. */
function cert(n: number, o: Partial<CertificateRecord>): CertificateRecord {
  const holder_name = o.holder_name ?? 'Acme Tax Fund LLC';
  return sampleCertificate({ ...o, holder_name, holder_id: holderId(holder_name) }, n);
}
// sampleCertificate gives each its quote's holder_amount on the redeemed date, the only
// redemption amount ingest accepts.
const redeemed = { status: 'redeemed', redeemed: true, redeemed_date: '2024-09-01' } as const;
const countyHeld = { interest_rate: 18 } as const;

const certificates = [
  // Acme: three held in three counties, one redeemed; one spelled differently.
  cert(0, { county_slug: 'alachua', tax_year: 2021, face_amount: 100.1 }),
  cert(1, { county_slug: 'alachua', tax_year: 2023, face_amount: 200.2 }),
  cert(2, { county_slug: 'duval', tax_year: 2022, face_amount: 50.05, ...redeemed }),
  cert(3, {
    county_slug: 'orange',
    tax_year: 2024,
    face_amount: 0.1,
    holder_name: 'ACME TAX FUND, LLC',
    status: 'tax_deed_applied',
    tax_deed_application_date: '2027-07-01',
  }),
  // Sunshine: 0.1 + 0.2 held; a cancelled one counts for the years only.
  cert(4, { holder_name: 'Sunshine Liens LP', face_amount: 0.1 }),
  cert(5, { holder_name: 'Sunshine Liens LP', face_amount: 0.2 }),
  cert(6, { holder_name: 'Sunshine Liens LP', tax_year: 2020, face_amount: 999, status: 'cancelled' }),
  // Gator: everything redeemed, still a holder that was seen.
  cert(7, { holder_name: 'Gator Capital', county_slug: 'broward', tax_year: 2019, face_amount: 10, ...redeemed }),
  // County-held, none of which makes a holder:
  cert(8, { holder_name: 'Alachua County', struck_to_county: true, status: 'available', ...countyHeld }),
  cert(9, { holder_name: 'ALACHUA COUNTY TAX COLLECTOR', struck_to_county: true, status: 'available', ...countyHeld }),
  cert(10, { holder_name: 'Waiting LLC', status: 'advertised', ...countyHeld }),
  cert(11, { holder_name: 'Alachua County', status: 'sold' }),
];

const expectedHolders = [
  {
    id: holderId('Acme Tax Fund LLC'),
    name: 'Acme Tax Fund LLC',
    normalized_name: 'acme tax fund llc',
    certificate_count: 3,
    outstanding_face_amount: 300.4,
    counties: ['alachua', 'duval', 'orange'],
    first_seen_tax_year: 2021,
    last_seen_tax_year: 2024,
    updated_at: AT.toISOString(),
  },
  {
    id: holderId('Sunshine Liens LP'),
    name: 'Sunshine Liens LP',
    normalized_name: 'sunshine liens lp',
    certificate_count: 2,
    outstanding_face_amount: 0.3,
    counties: ['alachua'],
    first_seen_tax_year: 2020,
    last_seen_tax_year: 2023,
    updated_at: AT.toISOString(),
  },
  {
    id: holderId('Gator Capital'),
    name: 'Gator Capital',
    normalized_name: 'gator capital',
    certificate_count: 0,
    outstanding_face_amount: 0,
    counties: ['broward'],
    first_seen_tax_year: 2019,
    last_seen_tax_year: 2019,
    updated_at: AT.toISOString(),
  },
].sort((a, b) => a.id.localeCompare(b.id));

async function count(dataset: 'certificates' | 'holders' | 'lands-available'): Promise<number> {
  return (await client.count({ index: aliasName(prefix, dataset) })).body.count;
}

async function holders(): Promise<unknown[]> {
  const res = await client.search({ index: aliasName(prefix, 'holders'), body: { size: 100, sort: [{ id: 'asc' }] } });
  return (res.body.hits.hits as Array<{ _source: unknown }>).map((h) => h._source);
}

beforeAll(async () => {
  client = createOpenSearch(ctx.config);
  sql = await openTestControl({ path: ctx.config.DATABASE_PATH, registry, label: 'derive-holders' });
  await ensureIndices(client, prefix, 0);
});

afterAll(async () => {
  await dropIndices(client, prefix);
  await client.close();
  await sql.close();
  ctx.cleanupFiles();
});

describe('certificate ingests leave holders and lands-available empty', () => {
  it('a certificate file through the worker path fills certificates only', async () => {
    const file = fileURLToPath(new URL('../../../../fixtures/files/lienport-csv/good.csv', import.meta.url));
    const outcome = await processFile(
      { dataset: 'certificates', file, vendor: 'lienport', county: 'miami-dade', taxYear: 2024, jobId: 'certs-1' },
      {
        opensearch: client,
        sql,
        registry,
        logger: createLogger('silent'),
        prefix,
        parcelBaseUrl: ctx.config.PARCEL_BASE_URL,
        load: createLoadResources(client, { prefix, replicas: 0, concurrency: 1, logger: createLogger('silent') }),
      },
    );
    expect(outcome.indexed).toBeGreaterThan(0);
    expect(await count('certificates')).toBe(outcome.indexed);
    expect(await count('holders')).toBe(0);
    expect(await count('lands-available')).toBe(0);
  });

  it('the bulk writer into certificates fills certificates only', async () => {
    // Start from certificates of this test alone.
    await client.deleteByQuery({ index: aliasName(prefix, 'certificates'), body: { query: { match_all: {} } }, refresh: true });
    const writer = createBulkWriter(client, { index: aliasName(prefix, 'certificates'), refresh: true });
    for (const c of certificates) await writer.add(c.id, c);
    expect(await writer.flush()).toMatchObject({ created: certificates.length, failed: 0 });
    expect(await count('certificates')).toBe(certificates.length);
    expect(await count('holders')).toBe(0);
    expect(await count('lands-available')).toBe(0);
  });
});

describe('deriveHolders', () => {
  it('builds one holder per holder_id: held counts and faces exclude redeemed, county-held left out', async () => {
    const result = await deriveHolders({ opensearch: client, prefix, replicas: 0, now: () => AT, registry });
    expect(result).toEqual({ holders: 3, created: 3, updated: 0, rejected: [] });
    expect(await holders()).toEqual(expectedHolders);
  });

  it('pages through holders with after_key: one holder per page gives the same documents', async () => {
    const result = await deriveHolders({ opensearch: client, prefix, replicas: 0, now: () => AT, registry, pageSize: 1 });
    expect(result).toEqual({ holders: 3, created: 0, updated: 3, rejected: [] });
    expect(await holders()).toEqual(expectedHolders);
  });

  it('leaves the holders index searchable with its normal settings', async () => {
    const res = await client.indices.getSettings({ index: aliasName(prefix, 'holders') });
    const settings = Object.values(res.body as Record<string, { settings: { index: Record<string, unknown> } }>)[0]!;
    expect(settings.settings.index.refresh_interval).toBe('1s');
  });
});
