import { countyHolderName, parcelUrl } from '../domain/county-facts.ts';
import { certificateId, holderId, normalizeKey } from '../domain/ids.ts';
import { type CertificateRecord, MAX_INTEREST_RATE } from '../domain/records.ts';
import { type Channel, type RegistryCounty, loadRegistry, type Registry } from '../domain/registry.ts';
import {
  type Bidders,
  type Institutions,
  individualBidders,
  institutionsBuyingIn,
  MAX_HOLDER_NAME,
  struckChance,
  winningBid,
} from './bidding.ts';
import { COUNTY_PROFILES, type CountyProfile, VENDOR_TRACKED } from './counties.ts';
import { addYears, dayOf, isoDay, monthsOrPartSince, parseDay, saleDaysIn } from './dates.ts';
import { faceParts } from './face.ts';
import { saleTargets } from './market.ts';
import { afterSale, EXPIRY_YEARS } from './lifecycle.ts';
import { buildParcel, cityTable, type Parcel } from './parcels.ts';
import { placeParcel } from './parcel-place.ts';
import { rollFacts } from './parcel-roll.ts';
import { type LatLon, loadInteriorPoints, townOf } from './towns.ts';
import { hashString, Prng, seedOf } from './prng.ts';
import { redemptionAmountOn } from './redemption.ts';
import { spellingIn } from './spellings.ts';

/**
 * A seeded model of Florida's certificate market as of `today`. The plan (which
 * counties, which files, how many rows each) is computed up front; records are
 * produced lazily per (county, tax year), so memory does not grow with N.
 *
 * Certificates for tax year Y are sold at the county's sale in the last two
 * weeks of May of Y+1, all on or before June 1 (dates.ts); the list is
 * advertised in the weeks before, and a tax year whose list has not been
 * advertised by `today` has no certificates yet. lifecycle.ts models what
 * happens after the sale.
 */

export type Coverage = 'certificate_level' | 'vendor_tracked' | 'directory_only';

export interface GenerateOptions {
  certificates: number;
  seed: number;
  /** YYYY-MM-DD: the market is generated as it stands on this day. */
  today: string;
  firstTaxYear?: number;
  lastTaxYear?: number;
  /**
   * Rows over the parcel files, about: the rolls of the counties with certificates grow by parcels
   * that never drew one, in proportion to each county's parcels, until they hold this many. Unset,
   * each roll holds its certificates' parcels and the few others the universe has. A real roll has
   * 20-30 times more parcels than certificates; a benchmark sets this to load a roll as large as the
   * certificates it joins onto.
   */
  parcelRollRows?: number;
  parcelBaseUrl?: string;
  registry?: Registry;
}

export interface CountyPlan {
  county: RegistryCounty;
  coverage: Coverage;
  channel: Channel | null;
}

export interface FilePlan {
  county: RegistryCounty;
  channel: Channel;
  taxYear: number;
  rows: number;
  /** Days of the county's sale for this tax year, YYYY-MM-DD. */
  saleDates: string[];
}

/** One county's parcel roll joined with parcel centroids: the rows of a parcels-csv file. */
export interface ParcelFilePlan {
  county: RegistryCounty;
  /** The roll's year: the latest tax year of the set. */
  assessmentYear: number;
  rows: number;
}

/** A row of the parcels-csv format (docs/data-formats.md), field for field. */
export interface ParcelRow {
  county_number: string;
  parcel_id: string;
  assessment_year: number;
  just_value: number;
  land_sqft: number;
  use_code: string;
  homestead: boolean;
  situs_address: string;
  situs_city: string;
  situs_zip: string;
  lat: number;
  lon: number;
}

export interface GeneratedState {
  seed: number;
  today: string;
  taxYears: number[];
  counties: CountyPlan[];
  /** One per (certificate-level county, tax year) with at least one row. */
  files: FilePlan[];
  records(file: FilePlan): Generator<CertificateRecord>;
  allRecords(): Generator<CertificateRecord>;
  /** One per certificate-level county with certificates: every parcel of its universe but the ones left off the roll. */
  parcelFiles: ParcelFilePlan[];
  /**
   * A county's parcel rows, in the order of the county's parcel universe (not by parcel id, as a
   * real roll is: sorting would hold a county's rows in memory, 1.6 million in Miami-Dade at 10M certificates).
   */
  parcelRows(file: ParcelFilePlan): Generator<ParcelRow>;
}

export const DEFAULT_FIRST_TAX_YEAR = 2015;
export const DEFAULT_LAST_TAX_YEAR = 2025;
const DEFAULT_PARCEL_BASE_URL = 'https://parcels.taxcert.dev/api/v1/parcels';

/** Fewer certificates in the boom years and after the 2020 relief programmes. */
const YEAR_WEIGHT: Record<number, number> = {
  2015: 1.3,
  2016: 1.2,
  2017: 1.1,
  2018: 1.0,
  2019: 0.95,
  2020: 0.85,
  2021: 0.85,
  2022: 0.9,
  2023: 0.95,
  2024: 1.0,
  2025: 1.05,
};

/**
 * Days before the first sale day that the delinquent list is first published: s. 197.402(3)
 * has it advertised once a week for 3 weeks before the sale. From then on, as of `today`,
 * the year's certificates exist as `advertised`; before then the year has none.
 */
export const ADVERTISING_LEAD_DAYS = 28;
/** Slots per parcel universe: each parcel carries about 1.8 certificates over 11 years. */
const PARCELS_PER_YEARLY_CERTIFICATE = 6;
/**
 * Share of parcels with no row in the parcel file, so the demo shows certificates without a
 * location (a parcel split or renumbered since the sale, a centroid the GIS layer lacks).
 */
export const PARCELS_WITHOUT_ROW = 0.01;
/** Coprime with 2, 3 and 5, so index -> (index * M + C) mod parcelSpace is a bijection (unique parcel ids). */
const PARCEL_MULTIPLIER = 7_919_993;

/** Largest-remainder split of `total` by weights; ties go to the earlier entry. */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const counts = exact.map(Math.floor);
  let left = total - counts.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, frac: e - Math.floor(e) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) counts[order[k]!.i]! += 1;
  return counts;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

interface CountyModel {
  index: number;
  county: RegistryCounty;
  channel: Channel;
  profile: CountyProfile;
  cities: ReturnType<typeof cityTable>;
  individuals: string[];
  countyHolder: string;
  parcelSeed: number;
  parcelUniverse: number;
  parcelOffset: number;
}

interface FileModel {
  plan: FilePlan;
  model: CountyModel;
  saleDays: number[];
  firstNumber: number;
  stride: number;
  start: number;
}

export function generateState(options: GenerateOptions): GeneratedState {
  const { certificates, seed, today } = options;
  if (!Number.isInteger(certificates) || certificates < 0) throw new RangeError(`certificates must be a whole number >= 0`);
  const registry = options.registry ?? loadRegistry();
  const firstTaxYear = options.firstTaxYear ?? DEFAULT_FIRST_TAX_YEAR;
  const lastTaxYear = options.lastTaxYear ?? DEFAULT_LAST_TAX_YEAR;
  const parcelBase = options.parcelBaseUrl ?? DEFAULT_PARCEL_BASE_URL;
  const todayDay = parseDay(today);
  const ingestedAt = `${today}T00:00:00.000Z`;
  const taxYears: number[] = [];
  for (let y = firstTaxYear; y <= lastTaxYear; y++) taxYears.push(y);

  const profiles = new Map(COUNTY_PROFILES.map((p) => [p.slug, p]));
  const tracked = new Set<string>(VENDOR_TRACKED);
  const counties: CountyPlan[] = registry.counties.map((county) => {
    const channel = registry.channel(county);
    const coverage: Coverage =
      channel && profiles.has(county.slug)
        ? 'certificate_level'
        : channel && tracked.has(county.slug)
          ? 'vendor_tracked'
          : 'directory_only';
    return { county, coverage, channel: coverage === 'directory_only' ? null : channel };
  });
  const levelCounties = counties.filter((c) => c.coverage === 'certificate_level');

  // A county-year exists once its delinquent list has been advertised (as of today).
  const pairs = levelCounties
    .flatMap((c) => taxYears.map((y) => ({ plan: c, taxYear: y, saleDays: saleDaysOf(c.county.slug, y) })))
    .filter((p) => todayDay >= p.saleDays[0]! - ADVERTISING_LEAD_DAYS);
  const counts = apportion(
    certificates,
    pairs.map((p) => (profiles.get(p.plan.county.slug)?.weight ?? 0) * (YEAR_WEIGHT[p.taxYear] ?? 1)),
  );

  function saleDaysOf(slug: string, taxYear: number): number[] {
    const profile = profiles.get(slug)!;
    const rng = new Prng(seedOf(seed, hashString(slug), taxYear, 3));
    return saleDaysIn(taxYear + 1, profile.saleOffset + rng.int(3), profile.saleDays);
  }

  const holderIds = new Map<string, string>();
  const holderIdOf = (name: string) => {
    let id = holderIds.get(name);
    if (id === undefined) {
      id = holderId(name);
      holderIds.set(name, id);
    }
    return id;
  };

  const models = new Map<string, CountyModel>();
  levelCounties.forEach((c, index) => {
    const profile = profiles.get(c.county.slug)!;
    const rows = counts.filter((_, i) => pairs[i]!.plan === c);
    const countyRows = rows.reduce((a, b) => a + b, 0);
    const maxYear = Math.max(1, ...rows);
    const countySeed = seedOf(seed, hashString(c.county.slug));
    const rng = new Prng(seedOf(countySeed, 1));
    const universe = Math.max(maxYear, Math.ceil((countyRows / taxYears.length) * PARCELS_PER_YEARLY_CERTIFICATE), 16);
    if (universe > profile.parcelSpace) throw new RangeError(`too many parcels for ${c.county.slug}'s parcel id format`);
    models.set(c.county.slug, {
      index,
      county: c.county,
      channel: c.channel!,
      profile,
      cities: cityTable(profile),
      individuals: individualBidders(rng, Math.min(4000, Math.max(60, Math.ceil(countyRows / 25)))),
      countyHolder: countyHolderName(c.county.name),
      parcelSeed: seedOf(countySeed, 2),
      parcelUniverse: universe,
      parcelOffset: rng.int(profile.parcelSpace),
    });
  });

  const fileModels: FileModel[] = [];
  pairs.forEach((p, i) => {
    const rows = counts[i]!;
    if (rows === 0) return;
    const model = models.get(p.plan.county.slug)!;
    // Seeded apart from saleDaysOf's generator, so the sale days do not shift these draws.
    const rng = new Prng(seedOf(seed, hashString(model.county.slug), p.taxYear, 5));
    const saleDays = p.saleDays;
    let stride = 1 + rng.int(model.parcelUniverse);
    while (gcd(stride, model.parcelUniverse) !== 1) stride++;
    fileModels.push({
      plan: { county: model.county, channel: model.channel, taxYear: p.taxYear, rows, saleDates: saleDays.map(isoDay) },
      model,
      saleDays,
      // Seed-dependent, so two seeds never share certificate numbers.
      firstNumber: 1 + rng.int(9000),
      stride,
      start: rng.int(model.parcelUniverse),
    });
  });
  const byPlan = new Map(fileModels.map((f) => [f.plan, f]));
  const institutionsByYear = new Map<number, Institutions>();
  const institutionsIn = (saleYear: number) => {
    let found = institutionsByYear.get(saleYear);
    if (!found) {
      found = institutionsBuyingIn(saleYear);
      institutionsByYear.set(saleYear, found);
    }
    return found;
  };

  function* records(plan: FilePlan): Generator<CertificateRecord> {
    const file = byPlan.get(plan);
    if (!file) throw new RangeError(`not a file of this state: ${plan.county.slug} ${plan.taxYear}`);
    const { model, saleDays } = file;
    const { profile, county, channel } = model;
    const taxYear = plan.taxYear;
    const saleYear = taxYear + 1;
    const rng = new Prng(seedOf(seed, hashString(county.slug), taxYear, 4));
    const parcelRng = new Prng(0);
    const batches = saleDays.length * profile.batchesPerDay;
    const deedEligibleDay = dayOf(saleYear + 2, 4, 1);
    // A certificate expires 7 years after its issue (the sale) unless a tax deed was applied for.
    const expiryDays = saleDays.map((d) => addYears(d, EXPIRY_YEARS));
    // Months of 18 percent interest from delinquency (April 1) to each sale day.
    const delinquencyMonths = saleDays.map((d) => monthsOrPartSince(`${saleYear}-04-01`, isoDay(d)));
    const growth = 1.04 ** (taxYear - firstTaxYear);
    const advertisingCents = Math.round(profile.advertisingFee * 100);
    const taxScale = profile.taxScale ?? 1;
    const countyHolderId = holderIdOf(model.countyHolder);
    const bidders: Bidders = {
      institutions: institutionsIn(saleYear),
      individuals: model.individuals,
      targets: saleTargets(profile.market, saleYear),
    };
    // Each file spells each fund family its own way (spellings.ts).
    const spellingSeed = seedOf(seed, hashString(county.slug), taxYear, 6);
    const spelled = new Map<string, string>();
    const spell = (name: string) => {
      let s = spelled.get(name);
      if (s === undefined) {
        s = spellingIn(spellingSeed, name, MAX_HOLDER_NAME);
        spelled.set(name, s);
      }
      return s;
    };

    for (let k = 0; k < plan.rows; k++) {
      const parcelIndex = (k * file.stride + file.start) % model.parcelUniverse;
      parcelRng.reseed(seedOf(model.parcelSeed, parcelIndex));
      const scrambled = (parcelIndex * PARCEL_MULTIPLIER + model.parcelOffset) % profile.parcelSpace;
      const parcel = buildParcel(profile, model.cities, scrambled, parcelRng);

      const delinquentCents = Math.max(1800, Math.round(parcel.baseTaxCents * taxScale * growth * (0.85 + 0.3 * rng.next())));
      const certificateNumber = profile.certificateNumber(taxYear, file.firstNumber + k);

      const dayIndex = Math.floor((k * saleDays.length) / plan.rows);
      const saleDay = saleDays[dayIndex]!;
      const faceCents = faceParts(delinquentCents, advertisingCents, delinquencyMonths[dayIndex]!).faceCents;
      const batch = profile.batchNumber(saleYear, Math.floor((k * batches) / plan.rows) + 1);
      let status: CertificateRecord['status'];
      let holder = model.countyHolder;
      let rate = MAX_INTEREST_RATE;
      let struck = false;
      let redeemedDay = -1;
      let applicationDay = -1;

      if (saleDay > todayDay) {
        // Advertised for its day of the sale, which is still ahead.
        status = 'advertised';
      } else {
        struck = rng.chance(struckChance(faceCents, parcel.kind === 'common_area', bidders.targets));
        if (!struck) {
          const bid = winningBid(faceCents, bidders, rng);
          holder = bid.institutional ? spell(bid.holder) : bid.holder;
          rate = bid.rate;
        }
        const lowValueLand = parcel.kind === 'vacant' || parcel.kind === 'common_area';
        const facts = { saleDay, deedEligibleDay, expiryDay: expiryDays[dayIndex]!, todayDay, struck, rate, lowValueLand };
        const outcome = afterSale(facts, rng);
        status = outcome.status;
        redeemedDay = outcome.redeemedDay;
        applicationDay = outcome.applicationDay;
      }

      const saleDate = isoDay(saleDay);
      const redeemedDate = redeemedDay < 0 ? null : isoDay(redeemedDay);
      yield {
        id: certificateId(county.slug, taxYear, certificateNumber),
        certificate_number: certificateNumber,
        certificate_number_normalized: normalizeKey(certificateNumber),
        county_slug: county.slug,
        county_name: county.name,
        parcel_id: parcel.parcelId,
        parcel_id_normalized: normalizeKey(parcel.parcelId),
        tax_year: taxYear,
        status,
        face_amount: faceCents / 100,
        delinquent_amount: delinquentCents / 100,
        interest_rate: rate,
        sale_date: saleDate,
        holder_id: holder === model.countyHolder ? countyHolderId : holderIdOf(holder),
        holder_name: holder,
        struck_to_county: struck,
        vendor: channel.certificateVendor,
        redeemed: redeemedDate !== null,
        redeemed_date: redeemedDate,
        redemption_amount: redeemedDate === null ? null : redemptionAmountOn(faceCents / 100, rate, saleDate, redeemedDate),
        tax_deed_application_date: applicationDay < 0 ? null : isoDay(applicationDay),
        owner_name: parcel.owner,
        site_address_full: parcel.address,
        legal_description: parcel.legal,
        batch_number: batch,
        parcel_url: parcelUrl(parcelBase, county.slug, parcel.parcelId),
        ingested_at: ingestedAt,
      };
    }
  }

  // Parcel files: a parcel is a pure function of its index, so the roll re-derives it as certificates do.
  const interiorPoints = loadInteriorPoints();
  const lastYear = taxYears[taxYears.length - 1]!;
  const parcelModels = new Map<ParcelFilePlan, CountyModel>();
  const leftOff = (model: CountyModel, parcelIndex: number) =>
    new Prng(seedOf(model.parcelSeed, parcelIndex, 7)).chance(PARCELS_WITHOUT_ROW);
  const rolled = [...models.values()].filter((model) => fileModels.some((f) => f.model === model));
  const universe = rolled.reduce((n, m) => n + m.parcelUniverse, 0);
  const scale = Math.max(1, (options.parcelRollRows ?? 0) / (universe * (1 - PARCELS_WITHOUT_ROW)));
  // Indices past the universe are parcels no certificate points at; the id bijection covers the whole parcel space.
  const rollSize = new Map(rolled.map((m) => [m, Math.min(m.profile.parcelSpace, Math.round(m.parcelUniverse * scale))]));
  for (const model of rolled) {
    let rows = 0;
    for (let i = 0; i < rollSize.get(model)!; i++) if (!leftOff(model, i)) rows++;
    parcelModels.set({ county: model.county, assessmentYear: lastYear, rows }, model);
  }

  function* parcelRows(plan: ParcelFilePlan): Generator<ParcelRow> {
    const model = parcelModels.get(plan);
    if (!model) throw new RangeError(`not a parcel file of this state: ${plan.county.slug}`);
    const interior = interiorPoints.get(model.county.slug);
    if (!interior) throw new RangeError(`no interior point for ${model.county.slug} in florida-county-centroids.csv`);
    const parcelRng = new Prng(0);
    const rng = new Prng(0);
    for (let i = 0; i < rollSize.get(model)!; i++) {
      if (leftOff(model, i)) continue;
      parcelRng.reseed(seedOf(model.parcelSeed, i));
      const scrambled = (i * PARCEL_MULTIPLIER + model.parcelOffset) % model.profile.parcelSpace;
      const parcel = buildParcel(model.profile, model.cities, scrambled, parcelRng);
      // Its own stream: the parcel's draws above are the ones its certificates saw.
      rng.reseed(seedOf(model.parcelSeed, i, 8));
      yield parcelRow(model.county, plan.assessmentYear, parcel, interior, rng);
    }
  }

  const files = fileModels.map((f) => f.plan);
  return {
    parcelFiles: [...parcelModels.keys()],
    parcelRows,
    seed,
    today,
    taxYears,
    counties,
    files,
    records,
    *allRecords() {
      for (const f of files) yield* records(f);
    },
  };
}

function parcelRow(county: RegistryCounty, assessmentYear: number, parcel: Parcel, interior: LatLon, rng: Prng): ParcelRow {
  const place = placeParcel(townOf(county.slug, parcel.city.name), interior, rng);
  const facts = rollFacts(county.slug, parcel, rng);
  // The certificate's site address is "<street part>, CITY, FL ZIP" (parcels.ts): the roll's situs is its parts.
  const tail = `, ${parcel.city.name}, FL ${parcel.zip}`;
  if (!parcel.address.endsWith(tail)) throw new RangeError(`address ${parcel.address} does not end with ${tail}`);
  return {
    county_number: county.dor,
    parcel_id: parcel.parcelId,
    assessment_year: assessmentYear,
    just_value: facts.justValue,
    land_sqft: facts.landSqft,
    use_code: facts.useCode,
    homestead: facts.homestead,
    situs_address: parcel.address.slice(0, -tail.length),
    situs_city: parcel.city.name,
    situs_zip: String(parcel.zip),
    lat: place.lat,
    lon: place.lon,
  };
}
