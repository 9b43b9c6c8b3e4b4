import type { Config } from '../../../../config.ts';
import { aliasName } from '../../../../domain/datasets.ts';
import { search } from '../../../../engine/search.ts';
import type { ObjectResult } from '../../../envelope.ts';
import { assertCounties, type CertificatesDeps } from '../../certificates/read.ts';
import { assertScopeWithin } from '../scope-cap.ts';
import { buildBidRates, scopeQuery } from './build-query.ts';
import { mapBidRates } from './map-row.ts';
import { bidRateRollupAggs, bidRatesFromRollups } from './from-rollups.ts';
import { type AnalyticsPath, readRollups, rollupScope, rollupsCover } from '../rollup-read.ts';
import type { BidRateParams } from './params.ts';
import type { BidRateAnalytics } from './row.ts';

/**
 * GET /analytics/bid-rates and the get_bid_rate_analytics tool: params -> one
 * size-0 search -> the exact figures. An unknown county slug is a 400, as in
 * certificate search; a scope without certificates is a 200 with zeros and nulls.
 * The engine's shard request cache keeps size-0 answers until the next refresh,
 * so a scope asked again between ingests costs no aggregation. A scope of county, tax_year
 * and vendor is added up from the rollups (rollup-read.ts: a few hundred documents a county
 * and year, whatever its certificates), and not refused for its size, since its cost no
 * longer grows with it; any other scope is the scan, capped.
 */
type BidRateDeps = Pick<CertificatesDeps, 'opensearch' | 'registry'> & { config: Pick<Config, 'INDEX_PREFIX' | 'BID_RATES_MAX_SCOPE'> };

export async function readBidRates(
  deps: BidRateDeps,
  params: BidRateParams,
): Promise<ObjectResult<BidRateAnalytics> & { path: AnalyticsPath }> {
  assertCounties(deps.registry, 'county', params.county);
  const rolled = await bidRatesByRollups(deps, params);
  return rolled ? { data: rolled, path: 'rollup' } : { data: await bidRatesByScan(deps, params), path: 'scan' };
}

/** The answer added up from rollups, or null when they cannot give it (rollup-read.ts). */
export async function bidRatesByRollups(deps: BidRateDeps, params: BidRateParams): Promise<BidRateAnalytics | null> {
  if (!rollupsCover(params)) return null;
  const rolled = await readRollups(deps.opensearch, deps.config.INDEX_PREFIX, rollupScope(params), bidRateRollupAggs());
  return rolled && mapBidRates(params, bidRatesFromRollups(rolled));
}

/** The answer read from the certificates now, its scope capped. */
export async function bidRatesByScan(deps: BidRateDeps, params: BidRateParams): Promise<BidRateAnalytics> {
  const index = aliasName(deps.config.INDEX_PREFIX, 'certificates');
  await assertScopeWithin(deps.opensearch, index, scopeQuery(params), deps.config.BID_RATES_MAX_SCOPE, ['county', 'tax_year', 'vendor']);
  const res = await search<never>(deps.opensearch, index, buildBidRates(params));
  return mapBidRates(params, res.aggregations);
}
