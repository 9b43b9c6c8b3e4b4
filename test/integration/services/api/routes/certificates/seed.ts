import type { Client } from '@opensearch-project/opensearch';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createBulkWriter } from '../../../../../../indexer/load/bulk.ts';
import { createPhysicalIndex } from '../../../../../../indexer/indices/create.ts';
import { rebuildRollups } from '../../../../../../indexer/rollups/rebuild.ts';
import { datasetAliases } from '../../../../../../services/engine/dataset-aliases.ts';
import { aliasTargets } from '../../../../../../indexer/indices/ensure.ts';
import { loadMapping } from '../../../../../../services/engine/mapping-file.ts';
import { buildApp } from '../../../../../../services/api/app.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { aliasName, physicalName } from '../../../../../../services/domain/datasets.ts';
import { holderId } from '../../../../../../services/domain/ids.ts';
import type { CertificateRecord, CertificateStatus } from '../../../../../../services/domain/records.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { sampleCertificate } from '../../../../../helpers/sample-certificate.ts';
import { apiKeyHeaders } from '../../../../../helpers/access.ts';

/**
 * The certificates the /certificates tests search: varied over every filtered and
 * sorted field, with the spellings free text and holder= must see through
 * (accents, punctuated parcel ids, "&" versus "and", query-parser characters), and
 * some equal face amounts so the id tie-breaker decides.
 */

const COUNTIES = [
  { slug: 'alachua', name: 'Alachua' },
  { slug: 'broward', name: 'Broward' },
  { slug: 'miami-dade', name: 'Miami-Dade' },
  { slug: 'duval', name: 'Duval' },
];
const YEARS = [2021, 2022, 2023];
const VENDORS = ['tax_collector', 'lienport', 'certbid', 'taxgavel'];
const HOLDERS = [
  'Acme Tax Fund LLC',
  'ACME TAX FUND, L.L.C.',
  'Smith & Jones Capital',
  'Smith and Jones Capital LP',
  'Sunshine Liens LP',
  'Gator Capital',
];
const OWNERS = ['José Núñez', 'Mary Smith', 'Oak Grove Holdings Inc', 'Jonathan Whitaker', "O'Brien (Trust) AND OR", 'Linda Park'];
const STATUSES: CertificateStatus[] = [
  'available',
  'advertised',
  'sold',
  'sold',
  'redeemed',
  'lands_available',
  'tax_deed_applied',
  'cancelled',
  'sold',
];

function day(year: number, n: number): string {
  const month = String((n % 6) + 5).padStart(2, '0');
  const d = String((n % 27) + 1).padStart(2, '0');
  return `${year + 1}-${month}-${d}`;
}

export function seedCertificates(count = 240): CertificateRecord[] {
  const out: CertificateRecord[] = [];
  for (let n = 0; n < count; n++) {
    const county = COUNTIES[n % COUNTIES.length]!;
    const tax_year = YEARS[Math.floor(n / 4) % YEARS.length]!;
    const status = STATUSES[n % STATUSES.length]!;
    const sale_date = day(tax_year, n);
    const holder_name = HOLDERS[n % HOLDERS.length]!;
    const redeemed = status === 'redeemed';
    const deed = status === 'tax_deed_applied' || status === 'lands_available';
    // Every tenth face amount repeats, so ties are broken by id.
    const face_amount = n % 10 === 0 ? 500 : 100 + ((n * 37) % 900) + 0.25;
    out.push(
      sampleCertificate(
        {
          certificate_number: `${tax_year}-${String(n).padStart(5, '0')}`,
          county_slug: county.slug,
          county_name: county.name,
          tax_year,
          status,
          face_amount,
          sale_date,
          holder_name,
          holder_id: holderId(holder_name),
          vendor: VENDORS[n % VENDORS.length]!,
          redeemed,
          redeemed_date: redeemed ? `${tax_year + 2}-01-15` : null,
          // redemption_amount left out: sampleCertificate gives the quote's holder_amount on redeemed_date.
          // Two years after April 1 of the sale year at the earliest (s. 197.502(1)).
          tax_deed_application_date: deed ? `${tax_year + 3}-05-01` : null,
          owner_name: OWNERS[n % OWNERS.length]!,
          // A frozen URL from another base: responses must build their own.
          parcel_url: 'https://old-parcels.example.com/frozen',
        },
        n,
      ),
    );
  }
  // One parcel across three tax years, written with different punctuation by each year's file.
  const parcel = ['12-34-56-0001', '12.34.56.0001', '1234560001'];
  YEARS.forEach((tax_year, i) => {
    out.push(
      sampleCertificate(
        {
          certificate_number: `P${tax_year}-77`,
          county_slug: 'broward',
          county_name: 'Broward',
          parcel_id: parcel[i]!,
          tax_year,
          sale_date: `${tax_year + 1}-06-01`,
          owner_name: 'Parcel Walker',
          site_address_full: '4500 SW Archer Rd, Gainesville, FL 32608',
          parcel_url: 'https://old-parcels.example.com/frozen',
        },
        1000 + i,
      ),
    );
  });
  // The same parcel id in another county is another parcel.
  out.push(
    sampleCertificate(
      {
        certificate_number: 'X-1',
        county_slug: 'duval',
        county_name: 'Duval',
        parcel_id: '12-34-56-0001',
        parcel_url: 'https://old-parcels.example.com/frozen',
      },
      2000,
    ),
  );
  return out;
}

/**
 * Replaces the certificates index of a prefix with a 3-shard one (facet counts and
 * totals must stay exact on a cluster) and loads the records into it, then makes its rollups
 * from them as taxcert reindex does (so the analytic reads answer from rollups where they can);
 * rollups: false leaves an index without rollups, which every analytic read scans.
 */
export async function loadOnThreeShards(
  client: Client,
  prefix: string,
  records: CertificateRecord[],
  options: { rollups?: boolean } = {},
): Promise<void> {
  const alias = aliasName(prefix, 'certificates');
  for (const index of await aliasTargets(client, alias)) await client.indices.delete({ index });
  const mapping = loadMapping('certificates');
  const threeShards = { ...mapping, settings: { ...mapping.settings, index: { ...mapping.settings.index, number_of_shards: 3 } } };
  await createPhysicalIndex(client, physicalName(prefix, 'certificates', mapping.version), 'certificates', threeShards, {
    replicas: 0,
    aliases: datasetAliases(prefix, 'certificates'),
  });
  const writer = createBulkWriter(client, { index: alias, refresh: true });
  for (const record of records) await writer.add(record.id, record);
  const totals = await writer.flush();
  if (totals.failed > 0) throw new Error(`seed failed: ${JSON.stringify(totals.failures.slice(0, 3))}`);
  if (options.rollups !== false) await rebuildRollups(client, (await aliasTargets(client, alias))[0]!);
  await client.indices.refresh({ index: alias });
}

export const PARCEL_BASE_URL = 'https://parcels.example.test/v2/parcels';

export interface CertificatesApi {
  t: TestRuntime;
  app: FastifyInstance;
  records: CertificateRecord[];
  /** Every request of these tests goes through here (the access layer adds its key in one place). */
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A test file's own prefix, the seed on a 3-shard certificates index, migrated SQLite and the app. */
export async function openCertificatesApi(fileUrl: string): Promise<CertificatesApi> {
  const t = await openTestRuntime(fileUrl, { PARCEL_BASE_URL });
  await migrate(t.runtime.sql);
  const records = seedCertificates();
  await loadOnThreeShards(t.runtime.opensearch, t.config.INDEX_PREFIX, records);
  const app = await buildApp(t.runtime);
  const key = await apiKeyHeaders(t.runtime);
  return {
    t,
    app,
    records,
    get: (url, headers = {}) => app.inject({ method: 'GET', url, headers: { ...key, ...headers } }),
    async close() {
      await app.close();
      await t.teardown();
    },
  };
}
