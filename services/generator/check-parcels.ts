import type { CertificateRecord } from '../domain/records.ts';
import { type Check, Tally } from './check-tally.ts';
import type { ParcelRow } from './generate-state.ts';
import { distanceKm, FLORIDA_EXTENT, inFlorida } from '../domain/county-centroids.ts';
import { MAX_PARCEL_KM } from './parcel-place.ts';
import { loadInteriorPoints } from './towns.ts';

/**
 * Checks of a set's parcel files against its certificates, as counts like check-data's:
 * every centroid in Florida and near its county's interior point, every certificate's
 * parcel on the roll but a small share, the roll's situs the certificate's address, and the
 * shares of homesteads and vacant land an investor expects of delinquent parcels.
 */

/** Share of certificate parcels with no row the generator leaves (PARCELS_WITHOUT_ROW, 1%), with room for chance. */
export const MAX_WITHOUT_ROW = 0.02;
/** Homesteads among parcels with certificates: a minority (about 20% generated). */
export const HOMESTEAD_RANGE = [0.12, 0.28] as const;
/** Vacant land (000, 010, 040) and agricultural (05x) among parcels with certificates: over-represented (about 15%). */
export const VACANT_RANGE = [0.1, 0.25] as const;
/** Dwellings (001 single family, 002 mobile home, 008 multi-family under ten units) among them. */
export const DWELLING_RANGE = [0.45, 0.7] as const;
/** A county's shares are held to the ranges from this many certificate parcels on. */
const MIN_PARCELS_FOR_SHARES = 400;

const VACANT = /^(000|010|040|05\d)$/;
const DWELLING = /^(001|002|008)$/;

interface Seen {
  homestead: boolean;
  useCode: string;
  situs: string;
  justValue: number;
}

const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)}%`);
const within = (x: number, [lo, hi]: readonly [number, number]) => x >= lo && x <= hi;

export interface ParcelChecker {
  addCertificate(r: CertificateRecord): void;
  addParcel(countySlug: string, row: ParcelRow): void;
  /** Parcel rows seen so far: a set without parcel files has no parcel checks. */
  rows(): number;
  checks(): Check[];
  figures(): Record<string, string>;
}

export function createParcelChecker(): ParcelChecker {
  const interior = loadInteriorPoints();
  const extent = new Tally();
  const radius = new Tally();
  const useCode = new Tally();
  const parcels = new Map<string, Seen>();
  /** Certificate parcel key -> the site address of one of its certificates. */
  const certificateParcels = new Map<string, string>();
  let rows = 0;

  return {
    addCertificate(r) {
      certificateParcels.set(`${r.county_slug}:${r.parcel_id}`, r.site_address_full);
    },
    addParcel(countySlug, row) {
      rows++;
      const where = () => `${countySlug} ${row.parcel_id} at ${row.lat},${row.lon}`;
      extent.see(inFlorida(row), where);
      const point = interior.get(countySlug);
      radius.see(point !== undefined && distanceKm(row, point) <= MAX_PARCEL_KM, where);
      useCode.see(/^\d{3}$/.test(row.use_code), () => `${countySlug} ${row.parcel_id} use code ${row.use_code}`);
      parcels.set(`${countySlug}:${row.parcel_id}`, {
        homestead: row.homestead,
        useCode: row.use_code,
        situs: `${row.situs_address}, ${row.situs_city}, FL ${row.situs_zip}`,
        justValue: row.just_value,
      });
    },
    rows: () => rows,
    checks() {
      const situs = new Tally();
      const covered = new Tally();
      const homestead = new Tally();
      const vacant = new Tally();
      const dwelling = new Tally();
      let missing = 0;
      const missingExamples: string[] = [];
      for (const [county, s] of counties()) {
        if (s.n < MIN_PARCELS_FOR_SHARES) continue;
        homestead.see(within(s.homestead / s.n, HOMESTEAD_RANGE), () => `${county}: ${pct(s.homestead, s.n)} homesteads`);
        vacant.see(within(s.vacant / s.n, VACANT_RANGE), () => `${county}: ${pct(s.vacant, s.n)} vacant`);
        dwelling.see(within(s.dwelling / s.n, DWELLING_RANGE), () => `${county}: ${pct(s.dwelling, s.n)} dwellings`);
      }
      for (const [key, address] of certificateParcels) {
        const p = parcels.get(key);
        if (!p) {
          missing++;
          if (missingExamples.length < 3) missingExamples.push(key);
          continue;
        }
        situs.see(p.situs === address, () => `${key}: roll ${p.situs}, certificate ${address}`);
      }
      // One tally over the whole set: a share, so the bad count is the rows missing beyond it.
      covered.of = certificateParcels.size;
      covered.bad = Math.max(0, missing - Math.floor(MAX_WITHOUT_ROW * certificateParcels.size));
      if (covered.bad > 0) covered.examples.push(`${missing} without a row, e.g. ${missingExamples.join(', ')}`);
      const lat = `${FLORIDA_EXTENT.minLat}..${FLORIDA_EXTENT.maxLat}`;
      const lon = `${FLORIDA_EXTENT.minLon}..${FLORIDA_EXTENT.maxLon}`;
      return [
        extent.check(`parcel centroid inside Florida's extent (lat ${lat}, lon ${lon})`),
        radius.check(`parcel centroid within ${MAX_PARCEL_KM} km of its county's interior point`),
        useCode.check('parcel use code is 3 digits'),
        covered.check(`every certificate's parcel has a row but at most ${MAX_WITHOUT_ROW * 100}%`),
        situs.check("parcel situs (address, city, ZIP) is its certificates' site address"),
        homestead.check(`homesteads among certificate parcels ${HOMESTEAD_RANGE.map((x) => Math.round(x * 100)).join('-')}% per county`),
        vacant.check(`vacant land among certificate parcels ${VACANT_RANGE.map((x) => Math.round(x * 100)).join('-')}% per county`),
        dwelling.check(
          `dwellings (001, 002, 008) among certificate parcels ${DWELLING_RANGE.map((x) => Math.round(x * 100)).join('-')}% per county`,
        ),
      ];
    },
    figures() {
      const out: Record<string, string> = {};
      for (const [county, s] of counties()) {
        const values = s.values.sort((a, b) => a - b);
        out[`parcels, ${county}`] =
          `${s.rows} rows, ${s.n} with certificates (${s.missing} certificate parcels without a row); of those ` +
          `${pct(s.homestead, s.n)} homesteads, ${pct(s.vacant, s.n)} vacant, ${pct(s.dwelling, s.n)} dwellings, ` +
          `median just value of single-family homes $${(values[values.length >> 1] ?? 0).toLocaleString('en-US')}`;
      }
      return out;
    },
  };

  function counties() {
    const by = new Map<
      string,
      { rows: number; n: number; missing: number; homestead: number; vacant: number; dwelling: number; values: number[] }
    >();
    const of = (county: string) => {
      let s = by.get(county);
      if (!s) {
        s = { rows: 0, n: 0, missing: 0, homestead: 0, vacant: 0, dwelling: 0, values: [] };
        by.set(county, s);
      }
      return s;
    };
    for (const key of parcels.keys()) of(key.slice(0, key.indexOf(':'))).rows++;
    for (const key of certificateParcels.keys()) {
      const s = of(key.slice(0, key.indexOf(':')));
      const p = parcels.get(key);
      if (!p) {
        s.missing++;
        continue;
      }
      s.n++;
      if (p.homestead) s.homestead++;
      if (VACANT.test(p.useCode)) s.vacant++;
      if (DWELLING.test(p.useCode)) s.dwelling++;
      if (p.useCode === '001') s.values.push(p.justValue);
    }
    return [...by].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  }
}
