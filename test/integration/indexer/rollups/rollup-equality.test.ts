import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureIndices } from '../../../../indexer/indices/ensure.ts';
import { reindex } from '../../../../indexer/indices/reindex.ts';
import { rebuildRollups } from '../../../../indexer/rollups/rebuild.ts';
import { aliasTargets } from '../../../../indexer/indices/ensure.ts';
import { bidRatesByRollups, bidRatesByScan } from '../../../../services/api/routes/analytics/bid-rates/read.ts';
import { HOLDER_GROUP_SORTS, HolderGroupsParams } from '../../../../services/api/routes/analytics/holders/params.ts';
import { holderGroupsByRollups, holderGroupsByScan } from '../../../../services/api/routes/analytics/holders/read.ts';
import { rolledCohort, scannedCohort } from '../../../../services/api/routes/analytics/redemption/read.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { quoteAmounts } from '../../../../services/domain/redemption-quote.ts';
import { rollupId, markerKey } from '../../../../services/engine/rollups/rollup-docs.ts';
import { openFileIngest, type FileIngest } from '../../../helpers/file-ingest.ts';
import { CertificateRollups } from '../../../../indexer/certificates/certificate-rollups.ts';

/**
 * Rollups against the scan they replace, on a 3-shard index loaded as the worker loads it: every
 * analytic answer the rollups give (bid rates, the redemption cohort behind the curve and the
 * expected yield, holder groups in every order and page) equals the scan's, over scopes of
 * county, tax year and vendor, after first
 * loads, after updates that change statuses, redemptions, rates and faces and drop a struck
 * certificate into a sale, after a retry-like rebuild, and after taxcert reindex.
 */

const COUNTIES = [
  { slug: 'bay', name: 'Bay' },
  { slug: 'brevard', name: 'Brevard' },
] as const;
const YEARS = [2022, 2023];

/** A deterministic stream of numbers in [0, 1). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Row = Record<string, unknown>;

const FUNDS = [
  'Gulf Coast Lien Fund II, LLC',
  'GULF COAST LIEN FUND 3 LLC',
  'Sunshine Tax Certs Inc.',
  'Bayview Partners LP',
  'BAYVIEW PARTNERS, L.P.',
];
const PEOPLE = [
  'ANN ADAMS',
  'BOB BAKER',
  'CARL CRUZ',
  'DANA DIAZ',
  'EVE ELLIS',
  'FRED FOX',
  'GINA GRAY',
  'HAL HUNT',
  'IDA IVES',
  'JON JAMES',
  'KAY KING',
];

/** n certificates of a county and year; `version` moves some of them on (redeemed, cancelled, new rate, new face). */
function rows(county: (typeof COUNTIES)[number], year: number, n: number, version: number): Row[] {
  const rnd = prng(year * 7 + county.slug.length);
  const later = prng(version * 101 + year);
  const out: Row[] = [];
  for (let i = 0; i < n; i++) {
    const saleDate = `${year + 1}-${rnd() < 0.5 ? '05-28' : '06-02'}`;
    let face = Math.round((50 + rnd() * 3000) * 100) / 100;
    let rate = Math.round(rnd() * 72) / 4;
    const kind = rnd();
    let status = 'sold';
    let struck = false;
    let redeemed: string | null = null;
    if (kind < 0.12) struck = true;
    else if (kind < 0.5)
      redeemed = `${year + 1 + Math.floor(rnd() * 3)}-${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`;
    else if (kind < 0.55) status = 'cancelled';
    if (version > 0 && later() < 0.3) {
      // An update: a sold one redeems, a struck one is bought, a rate or face is corrected.
      const change = later();
      if (change < 0.4 && !struck && redeemed === null && status === 'sold')
        redeemed = `${year + 3}-03-${String(1 + Math.floor(later() * 28)).padStart(2, '0')}`;
      else if (change < 0.6 && struck) struck = false;
      else if (change < 0.8) rate = Math.round(later() * 72) / 4;
      else face = Math.round(face * 90) / 100;
    }
    if (redeemed !== null && redeemed < saleDate) redeemed = null;
    if (struck) rate = 18;
    if (redeemed !== null) status = 'redeemed';
    // Funds under several spellings (one group each) and people, some in both counties; an
    // update moves a few certificates to another holder.
    const who = version > 0 && later() < 0.1 ? i + 7 : i;
    const holder = struck
      ? `${county.name} County`
      : who % 4 === 0
        ? FUNDS[who % FUNDS.length]!
        : `${PEOPLE[(who + county.slug.length) % PEOPLE.length]} ${(who % 3) + 1}`;
    out.push({
      certificateNumber: `${year}-${String(i + 1).padStart(6, '0')}`,
      parcelId: `${String(year % 100).padStart(2, '0')}-${String(i).padStart(5, '0')}-000`,
      taxYear: year,
      status: struck ? 'available' : status,
      faceAmount: face,
      delinquentAmount: Math.round(face * 95) / 100,
      interestRate: rate,
      saleDate,
      holderName: holder,
      struckToCounty: struck,
      redemption:
        redeemed === null ? null : { date: redeemed, amount: quoteAmounts(face, rate, saleDate, redeemed).holder_amount_cents / 100 },
      taxDeedApplicationDate: null,
      ownerName: `OWNER ${i}`,
      siteAddress: `${i} MAIN ST, TOWN, FL 32000`,
      legalDescription: null,
      batchNumber: 'B-01',
    });
  }
  return out;
}

let ingest: FileIngest;
let dir: string;
const prefix = () => ingest.config.INDEX_PREFIX;

async function loadAll(version: number): Promise<void> {
  for (const county of COUNTIES)
    for (const year of YEARS) {
      const file = join(dir, `${county.slug}-${year}-v${version}.jsonl`);
      const body = rows(county, year, 150 + year - 2020, version);
      const header = { feed: 'certbid-certificates', version: 1, county: county.slug, taxYear: year, generatedAt: '2026-07-01T06:00:00Z' };
      writeFileSync(file, `${[header, ...body, { trailer: true, count: body.length }].map((r) => JSON.stringify(r)).join('\n')}\n`);
      const result = await ingest.load(
        {
          jobId: `roll-${county.slug}-${year}-v${version}`,
          dataset: 'certificates',
          file,
          vendor: 'certbid',
          county: county.slug,
          taxYear: year,
        },
        `2026-07-0${version + 1}T12:00:00Z`,
      );
      expect(result.quarantined).toBe(0);
    }
}

const deps = () => ({
  opensearch: ingest.runtime.opensearch,
  registry: ingest.runtime.registry,
  config: { INDEX_PREFIX: prefix(), BID_RATES_MAX_SCOPE: 1_000_000, REDEMPTION_MAX_SCOPE: 1_000_000, HOLDER_GROUPS_MAX_SCOPE: 1_000_000 },
});

/** Holder-group scopes: the first three read rollups, the others scan. */
const GROUP_SCOPES = [{}, { county: ['bay'] }, { county: ['brevard'] }, { county: ['bay', 'brevard'] }, { tax_year: [2022] }];
/** Pages: the first, one in the middle, the deep walk (a window of 4), and past the end. */
const GROUP_PAGES = [
  { offset: 0, limit: 50, window: 10_000 },
  { offset: 3, limit: 5, window: 10_000 },
  { offset: 9, limit: 3, window: 4 },
  { offset: 500, limit: 10, window: 10_000 },
];

/** Every order, scope, name match and page of holder groups: the rollups answer where they can, and equal the scan. */
async function expectGroupsEqualScan(): Promise<void> {
  for (const [s, scope] of GROUP_SCOPES.entries())
    for (const sort of HOLDER_GROUP_SORTS)
      for (const query of [undefined, 'fund', 'baker'])
        for (const { window, ...page } of GROUP_PAGES) {
          const params = HolderGroupsParams.parse({ ...scope, sort, ...(query ? { query } : {}), ...page });
          const rolled = await holderGroupsByRollups(deps(), params, window);
          const what = `${JSON.stringify(scope)} ${sort} ${query} ${page.offset}`;
          if (s >= 3) {
            expect(rolled, what).toBeNull();
            continue;
          }
          expect(rolled, what).toEqual(await holderGroupsByScan(deps(), params));
        }
  const all = await holderGroupsByScan(deps(), HolderGroupsParams.parse({ limit: 50 }));
  expect(all.total).toBeGreaterThan(12);
}

const SCOPES = [
  {},
  { county: ['bay'] },
  { county: ['brevard'], tax_year: [2023] },
  { tax_year: [2022] },
  { vendor: ['CERTBID'] },
  { vendor: ['lienport'] },
  { county: ['bay', 'brevard'], tax_year: [2022, 2023] },
];
const DAYS = ['2026-11-28', '2025-03-14', '2024-06-15', '2023-06-01'];

/** Every scope and day: the rollups answer, and equal the scan. */
async function expectRollupsEqualScan(): Promise<void> {
  await expectGroupsEqualScan();
  for (const scope of SCOPES) {
    const rolled = await bidRatesByRollups(deps(), scope);
    expect(rolled).not.toBeNull();
    expect(rolled).toEqual(await bidRatesByScan(deps(), scope));
    for (const day of DAYS)
      for (const rates of [false, true]) {
        const scan = await scannedCohort(deps(), scope, day, rates).catch((err: Error) => err.message);
        const roll = await rolledCohort(deps(), scope, day, rates).catch((err: Error) => err.message);
        expect(roll, `${JSON.stringify(scope)} as of ${day}`).toEqual(scan);
      }
  }
}

beforeAll(async () => {
  ingest = await openFileIngest(import.meta.url);
  await ensureIndices(ingest.runtime.opensearch, prefix(), 0, 3);
  dir = mkdtempSync(join(tmpdir(), 'rollups-'));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await ingest?.teardown();
});

describe('rollups kept at ingest equal the scan', () => {
  it('after first loads: every scope of county, tax year and vendor, every day', async () => {
    await loadAll(0);
    const sold = await bidRatesByScan(deps(), {});
    expect(sold.certificates).toBeGreaterThan(300);
    expect(sold.struck_to_county).toBeGreaterThan(20);
    await expectRollupsEqualScan();
  });

  it('after updates of every county and year (statuses, redemptions, rates, faces)', async () => {
    const before = await bidRatesByScan(deps(), {});
    await loadAll(1);
    expect(await bidRatesByScan(deps(), {})).not.toEqual(before);
    await expectRollupsEqualScan();
  });

  it('a stale county and year is scanned until a rebuild makes its rollups again', async () => {
    const client = ingest.runtime.opensearch;
    const [index] = await aliasTargets(client, aliasName(prefix(), 'certificates'));
    await client.index({
      index: index!,
      id: rollupId(markerKey('stale', 'bay', 2022)),
      body: { rollup: { kind: 'stale', county_slug: 'bay', tax_year: 2022, count: 0, face_cents: 0 } },
      refresh: true,
    });
    expect(await bidRatesByRollups(deps(), { county: ['bay'] })).toBeNull();
    expect(await bidRatesByRollups(deps(), { county: ['brevard'] })).not.toBeNull();
    await rebuildRollups(client, index!, { countySlug: 'bay', taxYear: 2022 });
    await client.indices.refresh({ index: index! });
    await expectRollupsEqualScan();
  });

  it('a send that fails half way leaves its county and year stale: reads scan, exact, until a load rebuilds', async () => {
    const client = ingest.runtime.opensearch;
    const alias = aliasName(prefix(), 'certificates');
    const [one] = (await ingest.documents('certificates')).filter((d) => d.county_slug === 'brevard' && d.tax_year === 2022);
    const rollups = new CertificateRollups(client, prefix(), { countySlug: 'brevard', taxYear: 2022 }, undefined);
    const failing = rollups.withinSend(
      async () => {
        await client.index({ index: alias, id: 'cert_halfway', body: { ...one, id: 'cert_halfway', face_amount: 777.77 } });
        throw new Error('the engine went away');
      },
      () => new Set(),
    );
    await expect(failing).rejects.toThrow('the engine went away');
    await client.indices.refresh({ index: alias });
    expect(await bidRatesByRollups(deps(), { county: ['brevard'], tax_year: [2022] })).toBeNull();
    expect(await bidRatesByRollups(deps(), { county: ['bay'] })).not.toBeNull();
    // The next load of the county and year (a retry) makes them again from what is written.
    await loadAll(1);
    await expectRollupsEqualScan();
  });

  it('after taxcert reindex: the rollups are made again and both aliases move together', async () => {
    const client = ingest.runtime.opensearch;
    const result = await reindex(client, prefix(), 'certificates', {
      afterCopy: (index) => rebuildRollups(client, index),
      pollIntervalMs: 100,
    });
    expect(await aliasTargets(client, aliasName(prefix(), 'certificates'))).toEqual([result.to]);
    expect(await aliasTargets(client, `${prefix()}-certificate-rollups`)).toEqual([result.to]);
    await expectRollupsEqualScan();
  });
});
