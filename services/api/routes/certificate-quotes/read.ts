import { certificateTimeline, deedApplicationEarliest } from '../../../domain/certificate-timeline.ts';
import { aliasName } from '../../../domain/datasets.ts';
import { normalizeKey } from '../../../domain/ids.ts';
import { applicationOnRecord, redemptionQuote } from '../../../domain/redemption-quote.ts';
import { search } from '../../../engine/search.ts';
import type { ObjectResult } from '../../envelope.ts';
import { InvalidParamsError } from '../../errors.ts';
import { sortClause } from '../../../engine/paging/sort.ts';
import { floridaToday } from '../certificate-sales/florida-today.ts';
import { type CertificatesDeps, readCertificate } from '../certificates/read.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument } from '../certificates/row.ts';
import { buildOtherCertificates, OTHER_CERTIFICATES_MAX } from './build-other-certificates.ts';
import { mapDeedEstimate, mapQuote, mapTimeline } from './map-row.ts';
import type { CertificateOnDateParams } from './params.ts';
import type { DeedEstimateObject, RedemptionQuoteObject, TimelineObject } from './row.ts';

/**
 * The per-certificate answers (quote, timeline, deed estimate): id and day in, one object
 * out, no Fastify. REST and the MCP tools call these same functions. Each reads
 * the certificate by id (one get), checks the day, and asks services/domain.
 */

/** The certificate and the day: today in Florida by default; before the sale is a 400 naming date. */
async function certificateOn(deps: CertificatesDeps, params: CertificateOnDateParams, now: Date): Promise<[CertificateDocument, string]> {
  const { data } = await readCertificate(deps, { id: params.id });
  const asOf = params.date ?? floridaToday(now);
  if (asOf < data.sale_date)
    throw new InvalidParamsError([
      { parameter: 'date', message: `must be on or after the sale date ${data.sale_date}; ${asOf} is earlier` },
    ]);
  return [data, asOf];
}

export async function readRedemptionQuote(
  deps: CertificatesDeps,
  params: CertificateOnDateParams,
  now = new Date(),
): Promise<ObjectResult<RedemptionQuoteObject>> {
  const [c, asOf] = await certificateOn(deps, params, now);
  return { data: mapQuote(c, asOf, redemptionQuote(c, asOf)) };
}

export async function readCertificateTimeline(
  deps: CertificatesDeps,
  params: CertificateOnDateParams,
  now = new Date(),
): Promise<ObjectResult<TimelineObject>> {
  const [c, asOf] = await certificateOn(deps, params, now);
  return { data: mapTimeline(c, asOf, certificateTimeline(c, asOf)) };
}

export async function readDeedEstimate(
  deps: CertificatesDeps,
  params: CertificateOnDateParams,
  now = new Date(),
): Promise<ObjectResult<DeedEstimateObject>> {
  const [c, asOf] = await certificateOn(deps, params, now);
  const plan = buildOtherCertificates({
    county_slug: c.county_slug,
    parcel_id_normalized: normalizeKey(c.parcel_id),
    id: c.id,
    as_of: asOf,
  });
  const found = await search<CertificateDocument>(deps.opensearch, aliasName(deps.config.INDEX_PREFIX, 'certificates'), {
    query: plan.query,
    sort: sortClause(plan.sort),
    size: plan.size,
    track_total_hits: true,
    _source: CERTIFICATE_SOURCE,
  });
  // A partial list would understate what the applicant pays: fail loudly instead.
  if (found.total > OTHER_CERTIFICATES_MAX)
    throw new Error(`deed estimate: ${found.total} other certificates on one parcel, more than ${OTHER_CERTIFICATES_MAX}`);
  const others = found.hits.map((h) => {
    const q = redemptionQuote(h._source, asOf);
    return { doc: h._source, holder_amount_cents: q.redeemable ? q.holder_amount_cents : null };
  });
  const quote = redemptionQuote(c, asOf);
  const eligibleFrom = deedApplicationEarliest(c.sale_date);
  const eligible = quote.redeemable && !applicationOnRecord(c, asOf) && asOf >= eligibleFrom;
  return { data: mapDeedEstimate(c, asOf, { eligible, eligible_from: eligibleFrom }, others) };
}
