import type { Parcel, ParcelKind } from './parcels.ts';
import type { Prng } from './prng.ts';

/**
 * A parcel's line on the assessment roll (the Department of Revenue's NAL file):
 * just value, land area, use code and homestead exemption. Drawn for parcels that
 * carry tax certificates, whose roll differs from a county's at large: homesteads
 * are a minority (about one in five: a homesteaded owner rarely lets the tax go
 * unpaid), values sit below the county's median, and vacant land and common areas
 * are over-represented. The parcel's kind (parcels.ts) fixes the family of use
 * codes; its delinquent tax pulls the value up or down, so large tax bills sit on
 * valuable parcels.
 */

export interface RollFacts {
  justValue: number;
  landSqft: number;
  /** DOR land use code, 3 digits. */
  useCode: string;
  homestead: boolean;
}

/** Median just value of a single-family home in the county (2025 roll, rounded), dollars. */
const MEDIAN_HOME_VALUE: Readonly<Record<string, number>> = {
  'miami-dade': 560_000,
  broward: 480_000,
  hillsborough: 380_000,
  orange: 400_000,
  pinellas: 390_000,
  duval: 280_000,
  franklin: 310_000,
  gulf: 290_000,
};
const DEFAULT_MEDIAN_HOME_VALUE = 300_000;
/** Delinquent parcels are worth less than the county's typical one. */
const DELINQUENT_DISCOUNT = 0.65;

/** Just value against a home's, and land area (median square feet, spread), per kind. */
const KIND: Record<ParcelKind, { value: number; land: number; landSigma: number }> = {
  house: { value: 1, land: 7_500, landSigma: 0.45 },
  condo: { value: 0.55, land: 0, landSigma: 0 },
  vacant: { value: 0.16, land: 10_000, landSigma: 1 },
  commercial: { value: 2.6, land: 22_000, landSigma: 0.8 },
  common_area: { value: 0, land: 30_000, landSigma: 1.1 },
};
/** Rural counties' lots are larger. */
const RURAL = new Set(['franklin', 'gulf']);

/** Median delinquent tax of a kind (parcels.ts: $950 times the kind's factor), to read a parcel's tax as above or below par. */
const KIND_TAX_MEDIAN_CENTS: Record<ParcelKind, number> = {
  house: 95_000,
  condo: 76_000,
  vacant: 28_500,
  commercial: 380_000,
  common_area: 7_600,
};

/** Homestead exemption chance by kind: only a dwelling can carry one. */
const HOMESTEAD: Record<ParcelKind, number> = { house: 0.28, condo: 0.2, vacant: 0, commercial: 0, common_area: 0 };

function pick(rng: Prng, table: readonly (readonly [string, number])[]): string {
  let u = rng.next();
  for (const [code, share] of table) {
    if (u < share) return code;
    u -= share;
  }
  return table[table.length - 1]![0];
}

function useCode(kind: ParcelKind, rural: boolean, rng: Prng): string {
  switch (kind) {
    case 'house':
      // 001 single family, 002 mobile home, 008 multi-family under ten units.
      return pick(rng, [
        ['001', rural ? 0.72 : 0.86],
        ['002', rural ? 0.22 : 0.05],
        ['008', 1],
      ]);
    case 'condo':
      return '004';
    case 'vacant':
      // 000 vacant residential, 010 vacant commercial, 040 vacant industrial, 050-ish agricultural.
      return pick(rng, [
        ['000', 0.76],
        ['010', 0.12],
        ['040', 0.04],
        [rural ? '051' : '050', 1],
      ]);
    case 'commercial':
      // 011 stores, 017 offices, 021 restaurants, 027 auto sales and service, 048 warehousing.
      return pick(rng, [
        ['011', 0.42],
        ['017', 0.2],
        ['021', 0.1],
        ['027', 0.1],
        ['048', 1],
      ]);
    default:
      // 009 residential common elements and areas.
      return '009';
  }
}

const roundTo = (x: number, step: number) => Math.round(x / step) * step;

export function rollFacts(countySlug: string, parcel: Parcel, rng: Prng): RollFacts {
  const kind = KIND[parcel.kind];
  const rural = RURAL.has(countySlug);
  const code = useCode(parcel.kind, rural, rng);
  const homestead = rng.chance(HOMESTEAD[parcel.kind]);
  // How far the parcel's tax is from its kind's median, in the tax's own spread (parcels.ts: 0.8).
  const taxZ = Math.max(-3, Math.min(3, Math.log(parcel.baseTaxCents / KIND_TAX_MEDIAN_CENTS[parcel.kind]) / 0.8));
  const median = (MEDIAN_HOME_VALUE[countySlug] ?? DEFAULT_MEDIAN_HOME_VALUE) * DELINQUENT_DISCOUNT;
  let justValue: number;
  if (parcel.kind === 'common_area') justValue = rng.between(0, 50) * 100;
  else {
    const agricultural = code === '050' || code === '051';
    const factor = agricultural ? 0.6 : kind.value;
    // A homestead's owner lives there: worth a little more than a rental or an absentee's house.
    const lift = homestead ? 1.15 : 1;
    justValue = roundTo(median * factor * lift * Math.exp(0.35 * taxZ + 0.4 * rng.normal()), 100);
  }
  let landSqft = 0;
  if (kind.land > 0) {
    const median = code === '050' || code === '051' ? 10 * 43_560 : kind.land * (rural ? 2 : 1);
    landSqft = Math.max(1_200, roundTo(median * Math.exp(kind.landSigma * rng.normal()), 10));
  }
  return { justValue: Math.max(0, justValue), landSqft, useCode: code, homestead };
}
