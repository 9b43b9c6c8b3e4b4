import type { Config } from '../../../../config.ts';
import { aliasName } from '../../../../domain/datasets.ts';
import { floridaToday } from '../../../../domain/florida-today.ts';
import { multiSearch, search } from '../../../../engine/search.ts';
import type { ObjectResult } from '../../../envelope.ts';
import { InvalidParamsError } from '../../../errors.ts';
import { assertCounties, type CertificatesDeps } from '../../certificates/read.ts';
import { assertScopeWithin } from '../scope-cap.ts';
import { buildFirstSale, buildRedemptionCounts, cohortQuery } from './build-query.ts';
import { type CohortCounts, mapCohortCounts, mapFirstSale } from './counts.ts';
import { lowestRateMeeting, rateYields } from './expected-yield.ts';
import { type ExpectedYieldParams, MAX_MONTHS, type RedemptionCurveParams, type RedemptionScope } from './params.ts';
import type { ExpectedYield, RedemptionCurve } from './row.ts';
import { type AnalyticsPath, readRollups, rollupScope } from '../rollup-read.ts';
import { redemptionFromRollups, redemptionRollupAggs, redemptionRollupsCover } from './from-rollups.ts';
import { kaplanMeier, medianMonths, observedThrough, redeemedBy, survivalAt } from './survival.ts';

/**
 * GET /analytics/redemption-curve, /analytics/expected-yield and their MCP tools: scope and
 * day -> the cohort's exact counts (from rollups when the scope is county, tax_year and vendor
 * only: from-rollups.ts; else one multi-search, capped) -> Kaplan-Meier -> the answer. An unknown county
 * is a 400 as in search; a scope without certificates is a 200 with certificates 0 and nulls.
 */

export type RedemptionDeps = Pick<CertificatesDeps, 'opensearch' | 'registry'> & {
  config: Pick<Config, 'INDEX_PREFIX' | 'REDEMPTION_MAX_SCOPE'>;
};

/** The months whose redeemed share the curve answers. */
export const SHARE_MONTHS = [12, 24, 36, 60, 84] as const;
/** Every quarter point from 0 to 18: the rates a bid can take. */
export const ALL_RATES = Array.from({ length: 73 }, (_, i) => i / 4);

const NARROW_BY = ['county', 'tax_year', 'vendor', 'face_min', 'face_max', 'rate_min', 'rate_max'];

/** The day asked about: the data holds nothing after today, so a later day would count months that have not happened. */
function asOfDay(asked: string | undefined, now: Date): string {
  const today = floridaToday(now);
  if (asked !== undefined && asked > today)
    throw new InvalidParamsError([{ parameter: 'as_of', message: `must not be after today in Florida (${today})` }]);
  return asked ?? today;
}

/** The cohort's counts from rollups, or null when they cannot answer the scope (rollup-read.ts). */
export async function rolledCohort(deps: RedemptionDeps, p: RedemptionScope, asOf: string, rates: boolean): Promise<CohortCounts | null> {
  if (!redemptionRollupsCover(p)) return null;
  const rolled = await readRollups(deps.opensearch, deps.config.INDEX_PREFIX, rollupScope(p), redemptionRollupAggs(asOf, { rates }));
  if (!rolled) return null;
  const answer = redemptionFromRollups(rolled);
  const counts = mapCohortCounts(answer, asOf);
  if (counts.certificates === 0) assertSoldBy(mapFirstSale(answer.first));
  return counts;
}

/** The day asked about precedes every sale in scope: a 400 naming the first. */
function assertSoldBy(first: string | null): void {
  if (first !== null)
    throw new InvalidParamsError([
      { parameter: 'as_of', message: `is before every sale in scope: the first certificate was sold on ${first}` },
    ]);
}

async function readCohort(
  deps: RedemptionDeps,
  p: RedemptionScope,
  asOf: string,
  rates: boolean,
): Promise<{ counts: CohortCounts; path: AnalyticsPath }> {
  assertCounties(deps.registry, 'county', p.county);
  const rolled = await rolledCohort(deps, p, asOf, rates);
  return rolled ? { counts: rolled, path: 'rollup' } : { counts: await scannedCohort(deps, p, asOf, rates), path: 'scan' };
}

/** The cohort's counts read from the certificates now, the scope capped. */
export async function scannedCohort(deps: RedemptionDeps, p: RedemptionScope, asOf: string, rates: boolean): Promise<CohortCounts> {
  const index = aliasName(deps.config.INDEX_PREFIX, 'certificates');
  await assertScopeWithin(deps.opensearch, index, cohortQuery(p), deps.config.REDEMPTION_MAX_SCOPE, NARROW_BY);
  const [months, late, byRate] = await multiSearch<never>(deps.opensearch, index, buildRedemptionCounts(p, asOf, { rates }));
  const counts = mapCohortCounts(
    { months: months?.aggregations, late: late?.aggregations, ...(rates ? { rates: byRate?.aggregations } : {}) },
    asOf,
  );
  if (counts.certificates === 0) assertSoldBy(mapFirstSale((await search<never>(deps.opensearch, index, buildFirstSale(p))).aggregations));
  return counts;
}

function scopeEcho(p: RedemptionScope, asOf: string): RedemptionCurve['scope'] {
  return {
    county: p.county ?? null,
    tax_year: p.tax_year ?? null,
    vendor: p.vendor ?? null,
    face_min: p.face_min ?? null,
    face_max: p.face_max ?? null,
    rate_min: p.rate_min ?? null,
    rate_max: p.rate_max ?? null,
    as_of: asOf,
  };
}

export async function readRedemptionCurve(
  deps: RedemptionDeps,
  params: RedemptionCurveParams,
  now = new Date(),
): Promise<ObjectResult<RedemptionCurve> & { path: AnalyticsPath }> {
  const asOf = asOfDay(params.as_of, now);
  const { counts, path } = await readCohort(deps, params, asOf, false);
  const s = kaplanMeier(counts);
  return {
    path,
    data: {
      scope: scopeEcho(params, asOf),
      certificates: s.certificates,
      redeemed: s.redeemed.reduce((a, b) => a + b, 0),
      median_months: medianMonths(s),
      observed_through_months: observedThrough(s),
      redeemed_share_by: SHARE_MONTHS.map((months) => ({ months, share: redeemedBy(s, months) })),
      curve: s.atRisk.map((at_risk, k) => ({
        months: k,
        at_risk,
        redeemed: s.redeemed[k]!,
        censored: s.censored[k]!,
        survival: survivalAt(s, k),
      })),
    },
  };
}

export async function readExpectedYield(
  deps: RedemptionDeps,
  params: ExpectedYieldParams,
  now = new Date(),
): Promise<ObjectResult<ExpectedYield> & { path: AnalyticsPath }> {
  const asOf = asOfDay(params.as_of, now);
  const { counts, path } = await readCohort(deps, params, asOf, true);
  const s = kaplanMeier(counts);
  const horizon = params.horizon_months ?? MAX_MONTHS;
  const rates = [...new Set(params.rates ?? ALL_RATES)].sort((a, b) => a - b);
  const rows = rateYields(s, horizon, rates, counts.rates);
  return {
    path,
    data: {
      scope: scopeEcho(params, asOf),
      horizon_months: horizon,
      target_yield: params.target_yield ?? null,
      certificates: s.certificates,
      redeemed_within_horizon: redeemedBy(s, horizon),
      rates: rows,
      lowest_rate_meeting_target: params.target_yield === undefined ? null : lowestRateMeeting(rows, params.target_yield),
    },
  };
}
