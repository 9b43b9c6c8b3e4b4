import type { Config } from '../../../../config.ts';
import { aliasName } from '../../../../domain/datasets.ts';
import { search } from '../../../../engine/search.ts';
import type { ObjectResult } from '../../../envelope.ts';
import { assertCounties, type CertificatesDeps } from '../../certificates/read.ts';
import { assertScopeWithin } from '../scope-cap.ts';
import { buildBidRates, scopeQuery } from './build-query.ts';
import { mapBidRates } from './map-row.ts';
import type { BidRateParams } from './params.ts';
import type { BidRateAnalytics } from './row.ts';

/**
 * GET /analytics/bid-rates and the get_bid_rate_analytics tool: params -> one
 * size-0 search -> the exact figures. An unknown county slug is a 400, as in
 * certificate search; a scope without certificates is a 200 with zeros and nulls.
 * The engine's shard request cache keeps size-0 answers until the next refresh,
 * so a scope asked again between ingests costs no aggregation.
 */
export async function readBidRates(
  deps: Pick<CertificatesDeps, 'opensearch' | 'registry'> & { config: Pick<Config, 'INDEX_PREFIX' | 'BID_RATES_MAX_SCOPE'> },
  params: BidRateParams,
): Promise<ObjectResult<BidRateAnalytics>> {
  assertCounties(deps.registry, 'county', params.county);
  const index = aliasName(deps.config.INDEX_PREFIX, 'certificates');
  await assertScopeWithin(deps.opensearch, index, scopeQuery(params), deps.config.BID_RATES_MAX_SCOPE, ['county', 'tax_year', 'vendor']);
  const res = await search<never>(deps.opensearch, index, buildBidRates(params));
  return { data: mapBidRates(params, res.aggregations) };
}
