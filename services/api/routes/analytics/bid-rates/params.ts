import { z } from 'zod';
import { CertificateSearchParams, placeFilters, placeRules } from '../../certificates/params.ts';

/**
 * GET /analytics/bid-rates. The scope parameters are certificate
 * search's own (one schema per thing): the same values, lists and 400s, so a scope
 * here selects exactly what /certificates/search selects with the same filters.
 */
const search = CertificateSearchParams.shape;

export const BidRateParams = z
  .strictObject({
    county: search.county,
    tax_year: search.tax_year,
    vendor: search.vendor,
    ...placeFilters,
  })
  .superRefine(placeRules);
export type BidRateParams = z.infer<typeof BidRateParams>;
