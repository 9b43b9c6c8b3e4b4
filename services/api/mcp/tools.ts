import { z } from 'zod';
import type { County } from '../../control/ingest/counties.ts';
import { listResponse, objectResponse } from '../envelope.ts';
import { UsageParams } from '../routes/account/params.ts';
import { readUsage } from '../routes/account/read.ts';
import { Usage } from '../routes/account/row.ts';
import { CertificateOnDateParams } from '../routes/certificate-quotes/params.ts';
import { readCertificateTimeline, readDeedEstimate, readRedemptionQuote } from '../routes/certificate-quotes/read.ts';
import { DeedEstimateObject, RedemptionQuoteObject, TimelineObject } from '../routes/certificate-quotes/row.ts';
import { BidRateParams } from '../routes/analytics/bid-rates/params.ts';
import { readBidRates } from '../routes/analytics/bid-rates/read.ts';
import { BidRateAnalytics } from '../routes/analytics/bid-rates/row.ts';
import { ExpectedYieldParams, RedemptionCurveParams } from '../routes/analytics/redemption/params.ts';
import { readExpectedYield, readRedemptionCurve } from '../routes/analytics/redemption/read.ts';
import { ExpectedYield, RedemptionCurve } from '../routes/analytics/redemption/row.ts';
import { SalesSearchParams } from '../routes/certificate-sales/params.ts';
import { searchSales } from '../routes/certificate-sales/read.ts';
import { SaleRow } from '../routes/certificate-sales/row.ts';
import { FieldDictionary } from '../routes/certificates/fields.ts';
import {
  ByParcelParams,
  CertificateByIdParams,
  CertificateSearchParams,
  CountsParams,
  GeoGridParams,
  NoParams,
} from '../routes/certificates/params.ts';
import { GeoGridObject } from '../routes/certificates/geo-grid-row.ts';
import { readGeoGrid } from '../routes/certificates/read-geo-grid.ts';
import { readByParcel, readCertificate, readCertificateSearch } from '../routes/certificates/read.ts';
import { type CertificateCounts, readCertificateFields, readCertificateFreshness, readCounts } from '../routes/certificates/read-stats.ts';
import { CertificateCountsObject, type CertificateRow, FreshnessObject } from '../routes/certificates/row.ts';
import { ExpandedCertificateRow } from '../routes/certificates/row-view.ts';
import { CountiesParams, CountyPath } from '../routes/counties/params.ts';
import { readCounties, readCounty } from '../routes/counties/read.ts';
import { CountyRow } from '../routes/counties/row.ts';
import { EventsParams } from '../routes/events/params.ts';
import { readEvents } from '../routes/events/read.ts';
import { EventList } from '../routes/events/row.ts';
import { HolderPath, HoldersSearchParams } from '../routes/holders/params.ts';
import { readHolder, searchHolders } from '../routes/holders/read.ts';
import { HolderRow } from '../routes/holders/row.ts';
import { LandsSearchParams } from '../routes/lands-available/params.ts';
import { searchLands } from '../routes/lands-available/read.ts';
import { LandsRow } from '../routes/lands-available/row.ts';
import { PortfoliosParams } from '../routes/portfolios/params.ts';
import { PositionList } from '../routes/portfolios/position-row.ts';
import { readPortfolios } from '../routes/portfolios/read.ts';
import { PortfolioList } from '../routes/portfolios/row.ts';
import { readPortfolioPositions, readPortfolioSummary } from '../routes/portfolios/read-positions.ts';
import { PositionsOfParams, SummaryOfParams } from '../routes/portfolios/reading-params.ts';
import { type PortfolioSummary, PortfolioSummaryResponse } from '../routes/portfolios/summary-row.ts';
import { BulkFile } from '../../bulk/entry.ts';
import { BulkFilesParams } from '../routes/bulk/params.ts';
import { readBulkFilesForTool } from '../routes/bulk/read-tool.ts';
import { SourcesParams } from '../routes/sources/params.ts';
import { readSources } from '../routes/sources/read.ts';
import { SourceRow } from '../routes/sources/row.ts';
import { HolderGroupsParams } from '../routes/analytics/holders/params.ts';
import { searchHolderGroups } from '../routes/analytics/holders/read.ts';
import { HolderGroupRow } from '../routes/analytics/holders/row.ts';
import {
  CreateSavedSearchBody,
  SavedSearchesParams,
  SavedSearchMatchesOfParams,
  SavedSearchPath,
  UpdateSavedSearchBody,
} from '../routes/saved-searches/params.ts';
import { readSavedSearch, readSavedSearches, readSavedSearchMatches } from '../routes/saved-searches/read.ts';
import { SavedSearchRow } from '../routes/saved-searches/row.ts';
import { createSavedSearchWrite, deleteSavedSearchWrite, updateSavedSearchWrite } from '../routes/saved-searches/write.ts';
import { NoQuery } from '../routes/webhook-endpoints/params.ts';
import { type DeletedObject, DeletedResponse } from '../writes/schemas.ts';
import { defineTool, type Tool, toolTable } from './tool.ts';

/**
 * The tool table: one tool per REST read, each `{ input: <the route's params>,
 * run: <the route's read function>, rest: <that route> }`, and one per saved-search
 * write, which adds `body: <the route's body schema>` and runs the route's write function. Descriptions say when
 * to use a tool; defineTool adds the REST twin, the arguments, paging and cost
 * from the spec, and what each argument means comes from the parameter schemas
 * themselves (params.ts), which REST's OpenAPI document publishes too.
 */

export const TOOLS: readonly Tool[] = toolTable([
  defineTool({
    name: 'search_certificates',
    title: 'Search tax certificates',
    rest: 'GET /api/v1/certificates/search',
    description: `Search Florida tax certificates (first liens for unpaid property taxes; not ownership): free text over certificate number, parcel id, owner, address and legal description, filtered by county, status, tax year, holder, vendor, face amount, sale dates, redemption, bid rate, map area (bbox, near+radius, polygon) and parcel roll facts (homestead, just value, use code, ZIP, city, owner type), sorted (distance_asc from near), with optional facet counts and expand=parcel.`,
    input: CertificateSearchParams,
    output: listResponse(ExpandedCertificateRow, true),
    noun: 'certificates',
    run: (ctx, params) => readCertificateSearch(ctx.deps, params),
  }),
  defineTool({
    name: 'get_certificate',
    title: 'Get a certificate',
    rest: 'GET /api/v1/certificates/{id}',
    description:
      'One certificate by id (cert_ followed by 20 hex digits, as search results give it); expand=parcel adds its parcel roll facts. An unknown id is a not_found error.',
    input: CertificateByIdParams,
    output: objectResponse(ExpandedCertificateRow),
    noun: 'certificates',
    summarize: (c: CertificateRow) =>
      `Certificate ${c.certificate_number}, ${c.county_name} ${c.tax_year}, ${c.status}, face ${c.face_amount}.`,
    run: (ctx, params) => readCertificate(ctx.deps, params),
  }),
  defineTool({
    name: 'certificates_by_parcel',
    title: 'Certificates of one parcel',
    rest: 'GET /api/v1/certificates/by-parcel',
    description: `Every certificate of one parcel across all tax years, newest first: county slug and parcel id (dashes, dots and spaces ignored) are both required. A parcel without certificates is an empty list, never an error.`,
    input: ByParcelParams,
    output: listResponse(ExpandedCertificateRow),
    noun: 'certificates',
    run: (ctx, params) => readByParcel(ctx.deps, params),
  }),
  defineTool({
    name: 'get_certificate_geo_grid',
    title: 'Certificates on a map grid',
    rest: 'GET /api/v1/certificates/geo-grid',
    description:
      'Certificates within the search filters counted per web map tile z/x/y at zoom 0-18, each cell with its bounds, count and face amount sum; located is the total with a location (the cells add up to it). More than 10,000 cells is an error naming zoom.',
    input: GeoGridParams,
    output: objectResponse(GeoGridObject),
    noun: 'cells',
    summarize: (d: GeoGridObject) => `${d.located} located certificates in ${d.cells.length} cells at zoom ${d.zoom}.`,
    run: (ctx, params) => readGeoGrid(ctx.deps, params),
  }),
  defineTool({
    name: 'certificate_counts',
    title: 'Certificate counts by status',
    rest: 'GET /api/v1/certificates/counts',
    description:
      'How many certificates there are in each of the seven statuses, optionally for one county and one tax year; zeros included, largest first.',
    input: CountsParams,
    output: objectResponse(CertificateCountsObject),
    noun: 'counts',
    summarize: (d: CertificateCounts) =>
      `${d.counts.reduce((sum, b) => sum + b.count, 0)} certificates in ${d.county ?? 'all counties'}, ${d.tax_year ?? 'all tax years'}.`,
    run: (ctx, params) => readCounts(ctx.deps, params),
  }),
  defineTool({
    name: 'certificate_fields',
    title: 'Certificate field dictionary',
    rest: 'GET /api/v1/certificates/fields',
    description: 'The certificate fields: name, type, meaning, and the allowed values of enumerated fields (status, vendor).',
    input: NoParams,
    output: objectResponse(FieldDictionary),
    noun: 'fields',
    summarize: (d: FieldDictionary) => `${d.fields.length} certificate fields.`,
    run: (ctx, params) => readCertificateFields(ctx.deps, params),
  }),
  defineTool({
    name: 'certificate_freshness',
    title: 'Certificate data freshness',
    rest: 'GET /api/v1/certificates/freshness',
    description:
      'How current the certificate data is: certificate count, newest tax year, last ingest and last successful source check; use it to decide whether to re-pull.',
    input: NoParams,
    output: objectResponse(FreshnessObject),
    noun: 'freshness',
    summarize: (d: z.infer<typeof FreshnessObject>) =>
      `${d.certificate_count} certificates, newest tax year ${d.latest_tax_year ?? 'none'}, last ingested ${d.last_ingested_at ?? 'never'}.`,
    run: (ctx, params) => readCertificateFreshness(ctx.deps, params),
  }),
  defineTool({
    name: 'search_certificate_sales',
    title: 'Search annual certificate sales',
    rest: 'GET /api/v1/certificate-sales/search',
    description: `Annual county certificate sales (one per county and tax year): dates, platform and URL, certificates and face value offered and sold, average winning bid rate, certificates struck to the county, and status (scheduled, in_progress, completed).`,
    input: SalesSearchParams,
    output: listResponse(SaleRow),
    noun: 'sales',
    run: (ctx, params) => searchSales(ctx.deps, params),
  }),
  defineTool({
    name: 'search_holders',
    title: 'Search certificate holders',
    rest: 'GET /api/v1/holders/search',
    description: `Certificate holders (investors) by name, county and size, with certificates still held and their outstanding face value. The holder dataset may not be ingested yet (meta.coverage.status not_yet_ingested); search_certificates with holder=<name> lists a holder's certificates either way.`,
    input: HoldersSearchParams,
    output: listResponse(HolderRow),
    noun: 'holders',
    run: (ctx, params) => searchHolders(ctx.deps, params),
  }),
  defineTool({
    name: 'get_holder',
    title: 'Get a holder',
    rest: 'GET /api/v1/holders/{id}',
    description: 'One certificate holder by id (hld_<id>). An unknown id is a not_found error.',
    input: HolderPath,
    output: objectResponse(HolderRow),
    noun: 'holders',
    summarize: (h: HolderRow) => `${h.name}: ${h.certificate_count} certificates held, face ${h.outstanding_face_amount}.`,
    run: (ctx, params) => readHolder(ctx.deps, params),
  }),
  defineTool({
    name: 'search_lands_available',
    title: 'Search lands available for taxes',
    rest: 'GET /api/v1/lands-available/search',
    description: `Parcels on a county's lands-available list (offered for a tax deed after no one bid at the deed sale), by county, tax year and opening bid; sold as-is, still subject to their liens. The dataset may not be ingested yet (meta.coverage.status not_yet_ingested).`,
    input: LandsSearchParams,
    output: listResponse(LandsRow),
    noun: 'lands-available records',
    run: (ctx, params) => searchLands(ctx.deps, params),
  }),
  defineTool({
    name: 'list_counties',
    title: 'List counties',
    rest: 'GET /api/v1/counties',
    description:
      'All 67 Florida counties, alphabetical by name, with each county slug (the value every county argument takes), FIPS code, sale platform, coverage status (directory_only, vendor_tracked, certificate_level) and certificate count.',
    input: CountiesParams,
    output: objectResponse(z.array(CountyRow)),
    noun: 'counties',
    summarize: (data: County[]) =>
      `${data.length} counties, ${data.filter((c) => c.coverageStatus === 'certificate_level').length} with searchable certificates.`,
    run: (ctx, params) => readCounties(ctx.deps, params),
  }),
  defineTool({
    name: 'get_county',
    title: 'Get a county',
    rest: 'GET /api/v1/counties/{county}',
    description:
      'One county by slug (e.g. miami-dade): directory facts, sale platform and URL, coverage status, certificate count and last import. An unknown slug is a not_found error.',
    input: CountyPath,
    output: objectResponse(CountyRow),
    noun: 'counties',
    summarize: (c: County) => `${c.countyName} County (${c.countySlug}): ${c.coverageStatus}, ${c.certificateCount} certificates.`,
    run: (ctx, params) => readCounty(ctx.deps, params),
  }),
  defineTool({
    name: 'list_sources',
    title: 'List feed sources',
    rest: 'GET /api/v1/sources',
    description: `The feed registry: one row per county and tax year with the sale platform, URLs, kind, whether it is active and when it was last checked and last succeeded.`,
    input: SourcesParams,
    output: listResponse(SourceRow),
    noun: 'sources',
    run: (ctx, params) => readSources(ctx.deps, params),
  }),
  defineTool({
    name: 'list_bulk_files',
    title: 'List bulk files',
    rest: 'GET /api/v1/bulk/files',
    description: `The bulk files to download whole instead of paging: snapshots per county and tax year of certificates, certificate sales and lands available, one each of holders, counties and sources (Parquet, gzipped NDJSON and CSV), and a certificates and a certificate-sales delta per Florida day, each with rows, bytes, sha256, when it was written and the newest change-feed event it is consistent with. Plans with CSV only.`,
    input: BulkFilesParams,
    output: listResponse(BulkFile),
    noun: 'bulk files',
    run: (ctx, params) => readBulkFilesForTool(ctx.deps, ctx.access.principal, params),
  }),
  defineTool({
    name: 'get_bid_rate_analytics',
    title: 'Clearing bid rates',
    rest: 'GET /api/v1/analytics/bid-rates',
    analytic: true,
    description: `Winning bid rates of the certificates sold to a bidder in a scope (counties, tax years, vendors; none: everything): exact percentiles (nearest rank), mean and face-weighted mean, shares at 0%, 0.25%, 1% or less, above 5% and 18%, a histogram by rate and the same per county; certificates struck to the county are counted apart. Use it to see where bids still clear above 5%.`,
    input: BidRateParams,
    output: objectResponse(BidRateAnalytics),
    noun: 'bid rates',
    summarize: (d: BidRateAnalytics) =>
      `${d.certificates} certificates sold to bidders (${d.struck_to_county} struck to the county); median rate ${d.rate.median ?? 'none'}%, ${d.shares.above_5 === null ? 'none' : `${(d.shares.above_5 * 100).toFixed(2)}%`} above 5%.`,
    run: (ctx, params) => readBidRates(ctx.deps, params),
  }),
  defineTool({
    name: 'get_redemption_curve',
    title: 'Redemption curve',
    rest: 'GET /api/v1/analytics/redemption-curve',
    analytic: true,
    description: `How soon certificates redeem: Kaplan-Meier survival by interest month (June of the sale year is month 1) of the certificates sold to a bidder in a scope (counties, tax years, vendors, face and rate ranges; none: everything), not cancelled, as of a day (default today in Florida). Answers at risk, redeemed, censored and S(k) for months 0 to 84, the median months and the share redeemed by 12, 24, 36, 60 and 84 months. Exact from counts.`,
    input: RedemptionCurveParams,
    output: objectResponse(RedemptionCurve),
    noun: 'redemption curves',
    summarize: (d: RedemptionCurve) =>
      `${d.certificates} certificates as of ${d.scope.as_of}; median ${d.median_months ?? 'not reached'} months; ${d.redeemed_share_by.map((s) => `${s.months} mo ${s.share === null ? 'n/a' : `${(s.share * 100).toFixed(1)}%`}`).join(', ')} redeemed.`,
    run: (ctx, params) => readRedemptionCurve(ctx.deps, params),
  }),
  defineTool({
    name: 'get_expected_yield',
    title: 'Expected yield by bid rate',
    rest: 'GET /api/v1/analytics/expected-yield',
    analytic: true,
    description: `What each bid rate earns over a scope's redemption curve, counting the 5% minimum charge: for each rate (quarter points, default 0 to 18) the expected yield in percent a year given redemption within horizon_months (default 84), the shares of past certificates won above and at that rate, and with target_yield the lowest rate that reaches it. Same scope as get_redemption_curve. Use it to decide what to bid.`,
    input: ExpectedYieldParams,
    output: objectResponse(ExpectedYield),
    noun: 'expected yields',
    summarize: (d: ExpectedYield) =>
      `${d.certificates} certificates, ${d.redeemed_within_horizon === null ? 'none' : `${(d.redeemed_within_horizon * 100).toFixed(1)}%`} redeemed within ${d.horizon_months} months; ${d.rates.length} rates${d.target_yield === null ? '' : `; lowest rate reaching ${d.target_yield}%: ${d.lowest_rate_meeting_target ?? 'none'}`}.`,
    run: (ctx, params) => readExpectedYield(ctx.deps, params),
  }),
  defineTool({
    name: 'get_usage',
    title: 'Credit usage this month',
    rest: 'GET /api/v1/account/usage',
    description:
      "The calling key's credit usage this calendar month (UTC): calls charged, monthly quota, percent used, reset date and plan.",
    input: UsageParams,
    output: objectResponse(Usage),
    noun: 'usage',
    free: true,
    summarize: (u: Usage) =>
      `${u.events_count} of ${u.monthly_quota} credits used (${u.percent_used}%) on ${u.plan}; resets ${u.reset_date}.`,
    run: async (ctx) => ({ data: await readUsage(ctx.access.ledger, ctx.access.principal) }),
  }),
  // The per-certificate answers: redemption quote, timeline, deed estimate.
  defineTool({
    name: 'get_redemption_quote',
    title: 'Redemption quote of a certificate',
    rest: 'GET /api/v1/certificates/{id}/redemption',
    description:
      'What a certificate pays off on a day (default today in Florida): interest months from June of the sale year, accrued interest versus the 5% minimum, holder_amount (what the holder receives) and total_due (with the $6.25 fee), or why it is not redeemable (redeemed, cancelled, expired). A date before the sale is an invalid_params error.',
    input: CertificateOnDateParams,
    output: objectResponse(RedemptionQuoteObject),
    noun: 'redemption quotes',
    summarize: (q: RedemptionQuoteObject) =>
      q.redeemable
        ? `${q.certificate_id} on ${q.as_of}: holder receives ${q.holder_amount}, owner pays ${q.total_due} (${q.rule}).`
        : `${q.certificate_id} on ${q.as_of}: not redeemable (${q.reason}).`,
    run: (ctx, params) => readRedemptionQuote(ctx.deps, params),
  }),
  defineTool({
    name: 'get_certificate_timeline',
    title: 'Deadlines of a certificate',
    rest: 'GET /api/v1/certificates/{id}/timeline',
    description:
      "A certificate's statutory dates (sale, interest start, earliest tax deed application, expiry) and, while it is outstanding, the next deadline with the days left from the day given (default today in Florida).",
    input: CertificateOnDateParams,
    output: objectResponse(TimelineObject),
    noun: 'timelines',
    summarize: (t: TimelineObject) =>
      t.next_deadline === null
        ? `${t.certificate_id} (${t.status}): no deadline ahead.`
        : `${t.certificate_id}: ${t.next_deadline.name} on ${t.next_deadline.date}, ${t.next_deadline.days_left} days from ${t.as_of}.`,
    run: (ctx, params) => readCertificateTimeline(ctx.deps, params),
  }),
  defineTool({
    name: 'get_deed_estimate',
    title: 'Tax deed application cost of a certificate',
    rest: 'GET /api/v1/certificates/{id}/deed-estimate',
    description:
      "What this certificate's holder must pay to apply for a tax deed on the day (default today in Florida), as far as the data knows: eligibility, every other unredeemed certificate on the parcel with its redemption amount, the $75 fee, the known total, and what is not included.",
    input: CertificateOnDateParams,
    output: objectResponse(DeedEstimateObject),
    noun: 'deed estimates',
    summarize: (d: DeedEstimateObject) =>
      `${d.certificate_id} on ${d.as_of}: ${d.eligible ? 'eligible' : `not eligible (from ${d.eligible_from})`}, ${d.other_certificates.length} other certificates, known total ${d.known_total}.`,
    run: (ctx, params) => readDeedEstimate(ctx.deps, params),
  }),
  // Holder groups.
  defineTool({
    name: 'search_holder_groups',
    title: 'Holder groups (who the competition is)',
    rest: 'GET /api/v1/analytics/holders',
    analytic: true,
    description: `Certificate holders grouped into families (numbered funds such as "FL TAX LIEN FUND 11 LLC" and "Fl Tax Lien Fund 3, L.L.C." are one group; a bank "AS CUSTODIAN FOR X" counts as X; each county's own certificates are one group), with every member spelling and its count, certificates, face and outstanding face, counties, tax years, exact median rate, share at 0.25% and share redeemed. Filter by county, tax year and member name; sort by certificates, face, median rate or name.`,
    input: HolderGroupsParams,
    output: listResponse(HolderGroupRow),
    noun: 'holder groups',
    run: (ctx, params) => searchHolderGroups(ctx.deps, params),
  }),
  // The change feed.
  defineTool({
    name: 'list_events',
    title: 'What changed (the change feed)',
    rest: 'GET /api/v1/events',
    description: `What changed in the data, oldest first: certificates created, loaded (a county's first load of a tax year, one event), redeemed, taken to a tax deed application, moved to lands available, cancelled or otherwise updated; annual sales created and moving between scheduled, in_progress and completed; county coverage moves; the caller's own saved searches' matches (saved_search.match_added, match_removed, match_updated, matches_loaded) and portfolios' alerts (portfolio.deadline_approaching, portfolio.position_changed), which no other client sees. Each event has the row as it reads now (data.object) and the changed fields' old values (data.previous); a deadline alert has the certificate, the deadline's kind, date and days_left instead. Filter by type and county. Events are kept 90 days by default; an older after is a cursor_expired error.`,
    input: EventsParams,
    output: EventList,
    noun: 'events',
    run: (ctx, params) => readEvents(ctx.deps, ctx.access.principal.client.id, params),
  }),
  // Saved searches: the caller's own, written and read by the REST routes' functions (docs/saved-searches.md).
  defineTool({
    name: 'create_saved_search',
    title: 'Save a certificate search',
    rest: 'POST /api/v1/saved-searches',
    description: `Saves a name and the filters of a certificate search (params: the filters search_certificates takes, e.g. {"county": "lee", "status": "sold", "face_min": 2000}; {} is the whole market) for the calling client; saved_search_matches answers that search at any time. Order, facets and paging are not saved: give them to saved_search_matches. How many a client may keep depends on its plan (a limit_reached error past it).`,
    input: NoQuery,
    body: CreateSavedSearchBody,
    output: objectResponse(SavedSearchRow),
    noun: 'saved searches',
    summarize: (s: SavedSearchRow) => `Saved search ${s.id} "${s.name}" created.`,
    run: async (ctx, _params, body) => ({ data: (await createSavedSearchWrite(ctx.deps, ctx.access.principal, body)).data }),
  }),
  defineTool({
    name: 'list_saved_searches',
    title: 'List your saved searches',
    rest: 'GET /api/v1/saved-searches',
    description:
      "The calling client's saved searches, oldest first, each with its id, name and filters (params, as the search reads them).",
    input: SavedSearchesParams,
    output: listResponse(SavedSearchRow),
    noun: 'saved searches',
    run: (ctx, params) => readSavedSearches(ctx.deps, ctx.access.principal, params),
  }),
  defineTool({
    name: 'get_saved_search',
    title: 'Get a saved search',
    rest: 'GET /api/v1/saved-searches/{id}',
    description: "One of the calling client's saved searches by id (ss_<id>). An unknown id, or another client's, is a not_found error.",
    input: SavedSearchPath,
    output: objectResponse(SavedSearchRow),
    noun: 'saved searches',
    summarize: (s: SavedSearchRow) => `Saved search ${s.id} "${s.name}".`,
    run: (ctx, params) => readSavedSearch(ctx.deps, ctx.access.principal, params),
  }),
  defineTool({
    name: 'update_saved_search',
    title: 'Rename a saved search or change its filters',
    rest: 'PATCH /api/v1/saved-searches/{id}',
    description:
      "A new name, new params (replacing the stored filters whole), or both, for one of the calling client's saved searches. An unknown id, or another client's, is a not_found error.",
    input: SavedSearchPath,
    body: UpdateSavedSearchBody,
    output: objectResponse(SavedSearchRow),
    noun: 'saved searches',
    summarize: (s: SavedSearchRow) => `Saved search ${s.id} "${s.name}" updated.`,
    run: async (ctx, params, body) => ({ data: (await updateSavedSearchWrite(ctx.deps, ctx.access.principal, params.id, body)).data }),
  }),
  defineTool({
    name: 'delete_saved_search',
    title: 'Delete a saved search',
    rest: 'DELETE /api/v1/saved-searches/{id}',
    description:
      "Deletes one of the calling client's saved searches. Deleting it again is a not_found error, as are an unknown id and another client's.",
    input: SavedSearchPath,
    output: DeletedResponse,
    noun: 'saved searches',
    summarize: (d: z.infer<typeof DeletedObject>) => `Saved search ${d.id} deleted.`,
    run: async (ctx, params) => ({ data: (await deleteSavedSearchWrite(ctx.deps, ctx.access.principal, params.id)).data }),
  }),
  defineTool({
    name: 'saved_search_matches',
    title: 'The certificates a saved search selects',
    rest: 'GET /api/v1/saved-searches/{id}/matches',
    description:
      "Exactly what search_certificates answers for a saved search's filters plus this call's sort, facets, limit and offset: the same rows in the same order, the same totals and facets, as the data stands now. An unknown id, or another client's, is a not_found error.",
    input: SavedSearchMatchesOfParams,
    output: listResponse(ExpandedCertificateRow, true),
    noun: 'certificates',
    run: (ctx, { id, ...params }) => readSavedSearchMatches(ctx.deps, ctx.access.principal, { id }, params),
  }),
  // Portfolios: the caller's list, and each as of a day, by the REST routes' read functions.
  defineTool({
    name: 'list_portfolios',
    title: 'List your portfolios',
    rest: 'GET /api/v1/portfolios',
    description:
      "The calling client's portfolios of held tax certificates, oldest first, each with its id, name and the holder group it follows (or null). list_portfolio_positions and get_portfolio_summary read one of them as of a day.",
    input: PortfoliosParams,
    output: PortfolioList,
    noun: 'portfolios',
    run: (ctx, params) => readPortfolios(ctx.deps, ctx.access.principal, params),
  }),
  defineTool({
    name: 'list_portfolio_positions',
    title: "A portfolio's positions as of a day",
    rest: 'GET /api/v1/portfolios/{id}/positions',
    description:
      "Each position of one of the calling client's portfolios on a day (as_of, default today in Florida): the certificate as get_certificate answers it (null while not in the data yet: status unresolved), its redemption quote as get_redemption_quote answers it, the next deadline (deed_application_opens or expires) with days left, what was paid, interest earned if redeemed, and the annualized yield. A portfolio following a holder group includes that group's certificates (a group grown past 100,000 since it was followed is a limit_reached error until the portfolio follows a smaller one). Filter by status, county and deadline_before; sort by next_deadline_asc, payoff_desc, face_desc or acquired_desc. An unknown id, or another client's, is a not_found error.",
    input: PositionsOfParams,
    output: PositionList,
    noun: 'positions',
    run: (ctx, { id, ...params }) => readPortfolioPositions(ctx.deps, ctx.access.principal, { id }, params),
  }),
  defineTool({
    name: 'get_portfolio_summary',
    title: "A portfolio's summary as of a day",
    rest: 'GET /api/v1/portfolios/{id}/summary',
    description:
      "One of the calling client's portfolios summed on a day (as_of, default today in Florida): positions by status, outstanding face, payoff (sum of holder amounts) and interest accrued, redeemed positions with their face and interest earned (also by year of redemption), deadlines within 7, 30 and 90 days by kind, and positions not yet in the data (unresolved). Every amount is the sum, to the cent, of list_portfolio_positions' answers. An unknown id, or another client's, is a not_found error.",
    input: SummaryOfParams,
    output: PortfolioSummaryResponse,
    noun: 'portfolio summaries',
    summarize: (s: PortfolioSummary) =>
      `${s.portfolio_id} on ${s.as_of}: ${s.positions} positions, ${s.outstanding.positions} outstanding paying off ${s.outstanding.payoff_as_of}, ${s.unresolved} unresolved.`,
    run: (ctx, { id, ...params }) => readPortfolioSummary(ctx.deps, ctx.access.principal, { id }, params),
  }),
]);
