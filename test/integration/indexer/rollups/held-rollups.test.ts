import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertificateRollups } from '../../../../indexer/certificates/certificate-rollups.ts';
import { BulkRequestError } from '../../../../indexer/errors.ts';
import { aliasTargets } from '../../../../indexer/indices/ensure.ts';
import { createLoadResources } from '../../../../indexer/load/load-resources.ts';
import { rollupMarkers } from '../../../../indexer/rollups/commit.ts';
import { rebuildRollups } from '../../../../indexer/rollups/rebuild.ts';
import { bidRatesByRollups, bidRatesByScan } from '../../../../services/api/routes/analytics/bid-rates/read.ts';
import { HOLDER_GROUP_SORTS, HolderGroupsParams } from '../../../../services/api/routes/analytics/holders/params.ts';
import { holderGroupsByRollups, holderGroupsByScan } from '../../../../services/api/routes/analytics/holders/read.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { quoteAmounts } from '../../../../services/domain/redemption-quote.ts';
import { type RolledCertificate, RollupTally, rollupId } from '../../../../services/engine/rollups/rollup-docs.ts';
import { type FileIngest, openFileIngest } from '../../../helpers/file-ingest.ts';

/**
 * The worker holds the rollups of the files it sends until its next refresh of the certificates
 * index and writes them together then (indexer/rollups/held.ts). Loaded several files at once,
 * the rollups still equal the scan; held rollups are written by the refresh and not before, once
 * for all the files that share a document; a held difference that drifts is rebuilt, and a held
 * write the engine refuses leaves its counties and years stale (read by scan) and fails the refresh.
 */

const COUNTIES = ['bay', 'clay', 'levy'] as const;
const YEARS = [2022, 2023];
const FUNDS = ['GULF COAST LIEN FUND 3 LLC', 'Sunshine Tax Certs Inc.', 'BAYVIEW PARTNERS, L.P.'];

let ingest: FileIngest;
let dir: string;
const prefix = () => ingest.config.INDEX_PREFIX;
const client = () => ingest.runtime.opensearch;
const certificatesIndex = async () => (await aliasTargets(client(), aliasName(prefix(), 'certificates')))[0]!;

const deps = () => ({
  opensearch: client(),
  registry: ingest.runtime.registry,
  config: { INDEX_PREFIX: prefix(), BID_RATES_MAX_SCOPE: 1_000_000, REDEMPTION_MAX_SCOPE: 1_000_000, HOLDER_GROUPS_MAX_SCOPE: 1_000_000 },
});

/** A county and year's file: funds that bid in every county (one group across them) and people of that county only. */
function writeFile(county: string, year: number, n: number): string {
  const body = Array.from({ length: n }, (_, i) => {
    const face = 100 + ((i * 37 + year) % 900);
    const struck = i % 9 === 0;
    const rate = struck ? 18 : (i % 16) / 4;
    return {
      certificateNumber: `${year}-${String(i + 1).padStart(6, '0')}`,
      parcelId: `${year % 100}-${String(i).padStart(5, '0')}-000`,
      taxYear: year,
      status: struck ? 'available' : i % 5 === 0 ? 'redeemed' : 'sold',
      faceAmount: face,
      delinquentAmount: face,
      interestRate: rate,
      saleDate: `${year + 1}-06-01`,
      holderName: struck ? `${county} County` : i % 3 === 0 ? FUNDS[i % FUNDS.length] : `${county.toUpperCase()} PERSON ${i % 7}`,
      struckToCounty: struck,
      redemption:
        i % 5 === 0 && !struck
          ? {
              date: `${year + 2}-02-10`,
              amount: quoteAmounts(face, rate, `${year + 1}-06-01`, `${year + 2}-02-10`).holder_amount_cents / 100,
            }
          : null,
      taxDeedApplicationDate: null,
      ownerName: `OWNER ${i}`,
      siteAddress: `${i} MAIN ST, TOWN, FL 32000`,
      legalDescription: null,
      batchNumber: 'B-01',
    };
  });
  const header = { feed: 'certbid-certificates', version: 1, county, taxYear: year, generatedAt: '2026-07-01T06:00:00Z' };
  const file = join(dir, `${county}-${year}.jsonl`);
  writeFileSync(file, `${[header, ...body, { trailer: true, count: body.length }].map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}

async function expectEqualToScan(): Promise<void> {
  for (const scope of [{}, ...COUNTIES.map((c) => ({ county: [c] })), { county: ['clay'], tax_year: [2023] }]) {
    const rolled = await bidRatesByRollups(deps(), scope);
    expect(rolled, JSON.stringify(scope)).not.toBeNull();
    expect(rolled, JSON.stringify(scope)).toEqual(await bidRatesByScan(deps(), scope));
  }
  for (const scope of [{}, { county: ['levy'] }])
    for (const sort of HOLDER_GROUP_SORTS) {
      const params = HolderGroupsParams.parse({ ...scope, sort, limit: 50 });
      const rolled = await holderGroupsByRollups(deps(), params, 10_000);
      expect(rolled, `${JSON.stringify(scope)} ${sort}`).not.toBeNull();
      expect(rolled).toEqual(await holderGroupsByScan(deps(), params));
    }
}

/** A document as written, refreshed or not: its version, or undefined when there is none. */
async function writtenVersion(id: string): Promise<number | undefined> {
  const res = await client().mget({ index: await certificatesIndex(), realtime: true, _source: false, body: { ids: [id] } } as never);
  const [doc] = (res.body as { docs: { found?: boolean; _version?: number }[] }).docs;
  return doc?.found ? doc._version : undefined;
}

const certificate = (county: string, over: Partial<RolledCertificate> = {}): RolledCertificate => ({
  county_slug: county,
  tax_year: 2024,
  vendor: 'certbid',
  interest_rate: 0.25,
  face_amount: 500,
  struck_to_county: false,
  status: 'sold',
  sale_date: '2025-06-01',
  redeemed_date: null,
  holder_group_id: 'grp_held_test',
  holder_group_name: 'HELD TEST FUND LLC',
  holder_name: 'HELD TEST FUND LLC',
  county_held: false,
  ...over,
});

beforeAll(async () => {
  // Six files at once: up to four of them wait for one shared refresh (load-resources.ts).
  ingest = await openFileIngest(import.meta.url, {}, 6);
  dir = mkdtempSync(join(tmpdir(), 'held-rollups-'));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await ingest?.teardown();
});

describe('rollups held until the refresh', () => {
  it('files loaded at once: their rollups, held and written together, equal the scan', async () => {
    const jobs = COUNTIES.flatMap((county) =>
      YEARS.map((year) => ({
        jobId: `held-${county}-${year}`,
        dataset: 'certificates' as const,
        file: writeFile(county, year, 120),
        vendor: 'certbid',
        county,
        taxYear: year,
      })),
    );
    const results = await Promise.all(jobs.map((job) => ingest.load(job, '2026-07-01T12:00:00Z')));
    expect(results.map((r) => r.quarantined)).toEqual(jobs.map(() => 0));
    expect((await bidRatesByScan(deps(), {})).certificates).toBeGreaterThan(500);
    await expectEqualToScan();
  });

  it('are written by the next refresh and not before, once for every file that shares a document', async () => {
    const resources = createLoadResources(client(), { prefix: prefix(), replicas: 0, concurrency: 1, logger: ingest.runtime.logger });
    const index = await certificatesIndex();
    const wholeIndex = rollupId({ kind: 'groups_all', group_id: 'grp_held_test' });
    for (const county of ['bay', 'clay']) {
      const tally = new RollupTally();
      tally.add(certificate(county));
      tally.add(certificate(county, { interest_rate: 3 }));
      await resources.heldRollups.hold(index, tally, { countySlug: county, taxYear: 2024 });
    }
    expect(await writtenVersion(wholeIndex)).toBeUndefined();
    await resources.refreshCertificates();
    // One write of the group's whole-index document for both files.
    expect(await writtenVersion(wholeIndex)).toBe(1);
    const res = await client().get({ index, id: wholeIndex });
    expect((res.body._source as { rollup: { count: number; face_cents: number } }).rollup).toMatchObject({ count: 4, face_cents: 200_000 });
    // Those four certificates exist only as rollups: take them back, as a load that removed them would.
    for (const county of ['bay', 'clay']) {
      const tally = new RollupTally();
      tally.add(certificate(county), -1);
      tally.add(certificate(county, { interest_rate: 3 }), -1);
      await resources.heldRollups.hold(index, tally, { countySlug: county, taxYear: 2024 });
    }
    await resources.refreshCertificates();
    expect(await writtenVersion(wholeIndex)).toBeUndefined();
    await expectEqualToScan();
  });

  it('a worker that ends before its held write leaves the county and year stale: a refresh then shows a scope to scan', async () => {
    const resources = createLoadResources(client(), { prefix: prefix(), replicas: 0, concurrency: 1, logger: ingest.runtime.logger });
    const scope = { countySlug: 'bay', taxYear: 2023 };
    const alias = aliasName(prefix(), 'certificates');
    const [one] = (await ingest.documents('certificates')).filter((d) => d.county_slug === 'bay' && d.tax_year === 2023);
    const added = { ...one, id: 'cert_held_late', certificate_number: '2023-999999', face_amount: 4321.09 };
    const rollups = new CertificateRollups(client(), prefix(), scope, resources.rollupLedger, resources.heldRollups);
    rollups.comparing();
    rollups.compareComplete();
    rollups.observe(added as never);
    await rollups.withinSend(
      async () => {
        await client().index({ index: alias, id: 'cert_held_late', body: added });
        return { indexed: 1, updated: 0, failures: [] } as never;
      },
      () => new Set(),
    );
    // The worker ends here; the next one's start refreshes the index (bulk-mode.ts repair).
    await client().indices.refresh({ index: alias });
    const index = await certificatesIndex();
    expect(await rollupMarkers(client(), index, scope)).toEqual({ built: true, stale: true });
    expect(await bidRatesByRollups(deps(), { county: ['bay'] })).toBeNull();
    // Had it lived, its next refresh writes what it held and takes the marker away.
    await resources.refreshCertificates();
    expect(await rollupMarkers(client(), index, scope)).toEqual({ built: true, stale: false });
    await expectEqualToScan();
  });

  it('a held difference that would count below zero marks its counties and years stale and rebuilds them', async () => {
    const resources = createLoadResources(client(), { prefix: prefix(), replicas: 0, concurrency: 1, logger: ingest.runtime.logger });
    const index = await certificatesIndex();
    const tally = new RollupTally();
    // A certificate of levy 2022 that was never loaded, taken back.
    tally.add(certificate('levy', { tax_year: 2022, interest_rate: 17.75, holder_group_id: 'grp_never_there' }), -1);
    await resources.heldRollups.hold(index, tally, { countySlug: 'levy', taxYear: 2022 });
    await resources.refreshCertificates();
    expect(await rollupMarkers(client(), index, { countySlug: 'levy', taxYear: 2022 })).toEqual({ built: true, stale: false });
    await expectEqualToScan();
  });

  it('a held write the engine refuses leaves its counties and years stale, read by scan, and fails the refresh', async () => {
    const resources = createLoadResources(client(), { prefix: prefix(), replicas: 0, concurrency: 1, logger: ingest.runtime.logger });
    const index = await certificatesIndex();
    const tally = new RollupTally();
    // A sale day the rollups' date field refuses: the engine rejects that document.
    tally.add(certificate('clay', { tax_year: 2023, sale_date: 'not a day' }));
    await resources.heldRollups.hold(index, tally, { countySlug: 'clay', taxYear: 2023 });
    await expect(resources.refreshCertificates()).rejects.toBeInstanceOf(BulkRequestError);
    expect(await rollupMarkers(client(), index, { countySlug: 'clay', taxYear: 2023 })).toEqual({ built: true, stale: true });
    await client().indices.refresh({ index });
    expect(await bidRatesByRollups(deps(), { county: ['clay'] })).toBeNull();
    expect(await bidRatesByRollups(deps(), { county: ['bay'] })).not.toBeNull();
    // Nothing stays held: the next refresh writes nothing of it, and a rebuild makes the scope's rollups again.
    await resources.refreshCertificates();
    await rebuildRollups(client(), index, { countySlug: 'clay', taxYear: 2023 });
    await client().indices.refresh({ index });
    await expectEqualToScan();
  });
});
