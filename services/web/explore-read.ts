import { ApiError, type InvalidParamsError } from '../api/errors.ts';
import { IssueList } from '../api/params/issues.ts';
import { parseParams } from '../api/params/parse.ts';
import { MALFORMED, type ParsedQuery } from '../api/params/query-string.ts';
import { BidRateParams } from '../api/routes/analytics/bid-rates/params.ts';
import { readBidRates } from '../api/routes/analytics/bid-rates/read.ts';
import type { BidRateAnalytics } from '../api/routes/analytics/bid-rates/row.ts';
import { type ExpectedYieldParams, MAX_MONTHS, RedemptionCurveParams } from '../api/routes/analytics/redemption/params.ts';
import { readExpectedYield, readRedemptionCurve } from '../api/routes/analytics/redemption/read.ts';
import type { ExpectedYield, RedemptionCurve } from '../api/routes/analytics/redemption/row.ts';
import type { ListResult } from '../api/envelope.ts';
import { buildCertificateSearch } from '../api/routes/certificates/build-search.ts';
import { CERTIFICATE_FACETS, CertificateSearchParams } from '../api/routes/certificates/params.ts';
import { readCertificateSearch } from '../api/routes/certificates/read.ts';
import type { ExpandedCertificateRow } from '../api/routes/certificates/row-view.ts';
import { aliasName } from '../domain/datasets.ts';
import { search } from '../engine/search.ts';
import type { PageContext } from './context.ts';
import type { Meter } from './explore-meter.ts';

/**
 * What the explorer reads, each through the API's own read function with the API's own
 * parameter schema: the search (with every facet the search route offers), and for the first
 * page the three charts of the analytics routes over the part of the scope each route takes.
 * Each read is charged by the meter as the API charges the same request.
 */

/** The search parameters the explorer's form and links carry: the API's names and nothing else. */
export type ExploreParams = CertificateSearchParams;

/** Parameters the page writes itself: the answer is always this page (JSON read, every facet). */
const PAGE_OWNED = ['facets', 'format', 'expand', 'notice'] as const;

/**
 * The query string read as /api/v1/certificates/search reads it (validation.ts), after dropping
 * what the page decides itself and the blank boxes a plain GET form sends (an empty face_min
 * box is "no bound", not a bad number). Every problem is the API's InvalidParamsError.
 */
export function readExploreParams(raw: ParsedQuery): { value: ExploreParams; error?: undefined } | { error: InvalidParamsError } {
  const given: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined || (PAGE_OWNED as readonly string[]).includes(name)) continue;
    const kept = [value].flat().filter((v) => v.trim() !== '');
    if (kept.length > 0) given[name] = kept.length === 1 ? kept[0]! : kept;
  }
  const issues = new IssueList();
  for (const parameter of raw[MALFORMED] ?? []) issues.add(parameter, 'malformed percent-encoding in the query string');
  const parsed = parseParams(CertificateSearchParams, CertificateSearchParams.shape, given, issues);
  if (parsed.error) return parsed;
  return { value: { ...parsed.value, facets: [...CERTIFICATE_FACETS] } };
}

/** The lowest and highest face amount, winning rate and sale date of the current result: what the range boxes show. */
export interface ScopeRanges {
  face: { min: number; max: number } | null;
  rate: { min: number; max: number } | null;
  sale: { min: string; max: string } | null;
}

/**
 * The ranges over exactly the query the search ran (the API's own builder), one size-0 search
 * beside it. Part of the search's view, as the facets are: no credit of its own.
 */
export async function readScopeRanges(ctx: PageContext, params: ExploreParams): Promise<ScopeRanges> {
  const plan = buildCertificateSearch(params);
  const res = await search<never>(ctx.opensearch, aliasName(ctx.config.INDEX_PREFIX, 'certificates'), {
    size: 0,
    track_total_hits: false,
    query: plan.query,
    aggs: {
      face_min: { min: { field: 'face_amount' } },
      face_max: { max: { field: 'face_amount' } },
      rate_min: { min: { field: 'interest_rate' } },
      rate_max: { max: { field: 'interest_rate' } },
      sale_min: { min: { field: 'sale_date', format: 'yyyy-MM-dd' } },
      sale_max: { max: { field: 'sale_date', format: 'yyyy-MM-dd' } },
    },
  });
  const aggs = (res.aggregations ?? {}) as Record<string, { value: number | null; value_as_string?: string }>;
  const num = (name: string) => aggs[name]?.value ?? null;
  const pair = (low: number | null, high: number | null) => (low === null || high === null ? null : { min: low, max: high });
  const saleMin = aggs.sale_min?.value_as_string;
  const saleMax = aggs.sale_max?.value_as_string;
  return {
    face: pair(num('face_min'), num('face_max')),
    rate: pair(num('rate_min'), num('rate_max')),
    sale: num('sale_min') === null || !saleMin || !saleMax ? null : { min: saleMin, max: saleMax },
  };
}

/** A chart's answer, or the API's own refusal of its scope (a 400 naming the parameters that narrow it). */
export type ChartRead<T> = { data: T; error?: undefined } | { data?: undefined; error: ApiError };

export interface ExploreCharts {
  bidRates: ChartRead<BidRateAnalytics>;
  curve: ChartRead<RedemptionCurve>;
  yields: ChartRead<ExpectedYield>;
}

/** The parameters of `schema` the search params carry: an analytics route's scope is a subset of search's filters. */
function scopeOf<T>(schema: { shape: Record<string, unknown> }, params: ExploreParams): T {
  const names = Object.keys(schema.shape);
  return Object.fromEntries(Object.entries(params).filter(([name, value]) => names.includes(name) && value !== undefined)) as T;
}

/** The search filters each chart honours (what its route takes), for the page to say which are left out. */
export const CHART_SCOPES = {
  bidRates: Object.keys(BidRateParams.shape),
  redemption: Object.keys(RedemptionCurveParams.shape).filter((n) => n !== 'as_of'),
};

async function chart<T>(meter: Meter, run: () => Promise<{ data: T }>): Promise<ChartRead<T>> {
  try {
    return { data: (await meter.read(run)).data };
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return { error: err };
    throw err;
  }
}

export async function readExploreSearch(
  ctx: PageContext,
  meter: Meter,
  params: ExploreParams,
): Promise<ListResult<ExpandedCertificateRow>> {
  return meter.read(() => readCertificateSearch(ctx, params));
}

/** The three charts, side by side (each charged on its own, as three API requests are). */
export async function readExploreCharts(ctx: PageContext, meter: Meter, params: ExploreParams): Promise<ExploreCharts> {
  const now = ctx.clock();
  const redemption = scopeOf<RedemptionCurveParams>(RedemptionCurveParams, params);
  const yieldParams: ExpectedYieldParams = { ...redemption, horizon_months: MAX_MONTHS };
  const [bidRates, curve, yields] = await Promise.all([
    chart(meter, () => readBidRates(ctx, scopeOf(BidRateParams, params))),
    chart(meter, () => readRedemptionCurve(ctx, redemption, now)),
    chart(meter, () => readExpectedYield(ctx, yieldParams, now)),
  ]);
  return { bidRates, curve, yields };
}
