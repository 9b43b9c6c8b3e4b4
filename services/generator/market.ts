/**
 * The market the generator calibrates against: how many certificates find no
 * bidder (struck to the county) and how many clear at 0.25 percent, by sale year
 * and county. The figures are published sale statistics (copied here, so nothing
 * outside the repository is read at run time); [Q] quoted, [D] derived by simple
 * arithmetic from quoted figures, [E] our estimate where no source was found.
 *
 * Hillsborough's official "Tax Certificate Sale Summary" (hillstax.org, sales of
 * 2017-2023) is the backbone: the only series with both the share of sold
 * certificates at exactly 0.25% and the struck share for seven straight years.
 *   sale year             2017   2018   2019   2020   2021   2022   2023
 *   offered [Q]         18,373 17,777 20,405 18,936 15,242 15,593 16,554
 *   struck [Q]             544    477  1,735    411    176    117    164
 *   struck share [D]     2.96%  2.68%  8.50%  2.17%  1.15%  0.75%  0.99%
 *   sold at 0.25% [D]    83.3%  85.7%  88.8%  94.2%  96.8%  98.5%  79.3%
 *   average rate [Q]      2.24   1.57   1.33   0.83   0.59   0.40   1.59
 *   at 0% / at 18% [Q]   10/14   26/2  16/44   9/15  10/39   28/3  16/16
 * Other counties (florida-sale-statistics compilation, county pages and press):
 *  - Pinellas: 66 struck of 12,559 (2020), 0 of 9,964 (2021), 7 of 9,570 (2022),
 *    21 of 10,184 (2023) [Q]: 0-0.5%; average rate 0.94% (2020) [Q].
 *  - Orange: 97.9% of available certificates sold (~2019) [Q]: 2.1% struck [D].
 *  - Duval: 41,618 / 41,065 advertised (2011 / 2012), 98-99% sold [Q].
 *  - Palm Beach 2012: 22,016 sold, 2,460 struck [Q] (10.1% [D], a crisis-era year).
 *  - Large urban counties in 2018-2022: 85-98% of certificates at 0.25%, 0% bids
 *    0.05-0.2%, 18% bids 0.01-0.3% [D from Hillsborough]; the 2023 jump in rates
 *    (higher market rates) lowers the 0.25% share to ~80% [D], and 2024-2026 look
 *    more like 2023 than 2021-2022 [E].
 *  - Volumes per sale (certificates offered): Miami-Dade ~45,000-65,000 [E],
 *    Broward ~$90-100M of liens (2012-13) [Q], Duval ~31,000-33,000 [E from 41k
 *    advertised less 20-25% paid before the sale], Hillsborough 15,242-20,405 [Q],
 *    Orange ~15,000 (2013-14) [Q], Pinellas 9,570-12,559 [Q]. The demo set is a
 *    sample of about 1 in 25 to 1 in 50 of each sale: the counties keep their
 *    relative sizes (COUNTY_PROFILES weight), the shares are the real ones.
 *  - Struck certificates are small: mean struck face $140-790 in Hillsborough
 *    against $2,200-3,600 sold [D]; no-bid parcels are the cheap and unattractive.
 */

/** Hillsborough's struck share by sale year ([D] above; [E] outside 2017-2023). */
const STRUCK_SHARE_BY_SALE_YEAR: Readonly<Record<number, number>> = {
  2016: 0.03,
  2017: 0.0296,
  2018: 0.0268,
  2019: 0.085,
  2020: 0.0217,
  2021: 0.0115,
  2022: 0.0075,
  2023: 0.0099,
  2024: 0.012,
  2025: 0.013,
  2026: 0.013,
};

/** Hillsborough's share of sold certificates at exactly 0.25% by sale year ([D] above; [E] outside 2017-2023). */
const QUARTER_SHARE_BY_SALE_YEAR: Readonly<Record<number, number>> = {
  2016: 0.82,
  2017: 0.833,
  2018: 0.857,
  2019: 0.888,
  2020: 0.942,
  2021: 0.968,
  2022: 0.985,
  2023: 0.793,
  2024: 0.8,
  2025: 0.82,
  2026: 0.82,
};

/** How a county's sale differs from Hillsborough's: factors on the struck share, an offset on the 0.25% share. */
export interface CountyMarket {
  /** Multiplies Hillsborough's struck share of the same sale year. */
  struckFactor: number;
  /** Added to Hillsborough's 0.25% share of the same sale year (then kept within 0..0.99). */
  quarterOffset: number;
  /** Share of 0.25% winners that are funds; 0.97 unless set (few funds bid in small counties). */
  institutionalQuarter?: number;
  /** Share of sold certificates left at 18%; EIGHTEEN_SHARE unless set ("a visible mass at 18%" in small counties). */
  eighteenShare?: number;
}

/** Targets of one county's sale in one year. */
export interface SaleTargets {
  /** Share of offered certificates no one bids on. */
  struck: number;
  /** Share of sold certificates that clear at exactly 0.25%. */
  quarter: number;
  institutionalQuarter: number;
  eighteen: number;
}

export function saleTargets(market: CountyMarket, saleYear: number): SaleTargets {
  const struck = (STRUCK_SHARE_BY_SALE_YEAR[saleYear] ?? 0.02) * market.struckFactor;
  const quarter = (QUARTER_SHARE_BY_SALE_YEAR[saleYear] ?? 0.85) + market.quarterOffset;
  return {
    struck: Math.min(0.9, struck),
    quarter: Math.min(0.99, Math.max(0, quarter)),
    institutionalQuarter: market.institutionalQuarter ?? 0.97,
    eighteen: market.eighteenShare ?? EIGHTEEN_SHARE,
  };
}

/**
 * The published ranges the generated market is checked against (check-data.ts):
 * each county's struck share over all its sales, and the 0.25% share of its sold
 * certificates. Pinellas 0-0.5% struck [Q]; large urban counties 0.1-3% typical
 * with an 8.5% spike year (Hillsborough 2019) [Q/D]; 0.25% at 79-98.5% a year [D].
 */
export const CALIBRATED_RANGES = {
  struck: {
    'miami-dade': [0.005, 0.045],
    broward: [0.005, 0.045],
    hillsborough: [0.015, 0.045],
    orange: [0.005, 0.045],
    pinellas: [0, 0.01],
    duval: [0.005, 0.045],
    // Franklin 11-32% (2019-2025), Gulf 17% (2021) [D].
    franklin: [0.1, 0.32],
    gulf: [0.1, 0.32],
  },
  quarter: {
    'miami-dade': [0.78, 0.96],
    broward: [0.78, 0.96],
    hillsborough: [0.78, 0.96],
    orange: [0.78, 0.96],
    pinellas: [0.78, 0.96],
    duval: [0.78, 0.96],
    // Small rural counties average 5-14% (Franklin 5.5-11%, Gulf ~6%) [Q]: 20-60% at 0.25% [E].
    franklin: [0.15, 0.6],
    gulf: [0.15, 0.6],
  },
} as const satisfies { struck: Record<string, readonly [number, number]>; quarter: Record<string, readonly [number, number]> };

/** The large urban counties: funds win most certificates at 0.25% there. */
export const LARGE_COUNTIES = ['miami-dade', 'broward', 'hillsborough', 'orange', 'pinellas', 'duval'] as const;

/**
 * Rates above 0.25% where institutions are outbid by people who want the 5%
 * minimum or a high rate: Hillsborough's non-0.25% certificates average about
 * 10% ([D]: (average - 0.25 x share) / (1 - share) is 9.9-12.2 for 2017-2022,
 * 6.7 in 2023), spread mostly between 0.5 and 10% and clustering at round-ish
 * rates (4.5, 8, 8.5, 11.5, 14: the $-by-rate table of an unnamed mid-size
 * county, boards.fool.com) [Q]. Each entry: rate, weight.
 */
export const RATE_LADDER: readonly (readonly [number, number])[] = [
  [0.5, 3],
  [0.75, 2],
  [1, 3],
  [1.5, 2],
  [2, 3],
  [3, 3],
  [4, 2],
  [4.5, 4],
  [5, 5],
  [6, 3],
  [7, 3],
  [8, 5],
  [8.5, 4],
  [9, 3],
  [10, 5],
  [11, 3],
  [11.5, 4],
  [12, 4],
  [13, 3],
  [14, 5],
  [15, 3],
  [16, 3],
  [17, 2],
  [17.75, 2],
];

/** Share of sold certificates bid down to 0% (no interest, not even the 5% minimum): 0.05-0.2% [D]. */
export const ZERO_SHARE = 0.0012;
/** Share of sold certificates left at the opening 18%: 0.01-0.3% [D] in large counties. */
export const EIGHTEEN_SHARE = 0.0015;
