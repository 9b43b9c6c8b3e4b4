import { z } from 'zod';
import type { County } from '../../control/counties.ts';
import { listResponse, objectResponse } from '../envelope.ts';
import { UsageParams } from '../routes/account/params.ts';
import { readUsage } from '../routes/account/read.ts';
import { Usage } from '../routes/account/row.ts';
import { SalesSearchParams } from '../routes/certificate-sales/params.ts';
import { searchSales } from '../routes/certificate-sales/read.ts';
import { SaleRow } from '../routes/certificate-sales/row.ts';
import { FieldDictionary } from '../routes/certificates/fields.ts';
import { ByParcelParams, CertificateIdPath, CertificateSearchParams, CountsParams, NoParams } from '../routes/certificates/params.ts';
import { readByParcel, readCertificate, readCertificateSearch } from '../routes/certificates/read.ts';
import { type CertificateCounts, readCertificateFields, readCertificateFreshness, readCounts } from '../routes/certificates/read-stats.ts';
import { CertificateCountsObject, CertificateRow, FreshnessObject } from '../routes/certificates/row.ts';
import { CountiesParams, CountyPath } from '../routes/counties/params.ts';
import { readCounties, readCounty } from '../routes/counties/read.ts';
import { CountyRow } from '../routes/counties/row.ts';
import { HolderPath, HoldersSearchParams } from '../routes/holders/params.ts';
import { readHolder, searchHolders } from '../routes/holders/read.ts';
import { HolderRow } from '../routes/holders/row.ts';
import { LandsSearchParams } from '../routes/lands-available/params.ts';
import { searchLands } from '../routes/lands-available/read.ts';
import { LandsRow } from '../routes/lands-available/row.ts';
import { SourcesParams } from '../routes/sources/params.ts';
import { readSources } from '../routes/sources/read.ts';
import { SourceRow } from '../routes/sources/row.ts';
import { defineTool, type Tool } from './tool.ts';

/**
 * The tool table: one tool per REST read, each `{ input: <the route's params>,
 * run: <the route's read function> }`. Descriptions say when to use a tool and
 * which REST route it mirrors; what each argument means comes from the parameter
 * schemas themselves (params.ts), which REST's OpenAPI document publishes too.
 */

const PAGING = 'Pages with limit (1-500, default 25) and offset; pagination.total is exact and has_more says whether to call again.';

export const TOOLS: readonly Tool[] = [
  defineTool({
    name: 'search_certificates',
    title: 'Search tax certificates',
    description: `Search Florida tax certificates (first liens for unpaid property taxes; not ownership): free text over certificate number, parcel id, owner, address and legal description, filtered by county, status, tax year, holder, vendor, face amount, sale dates and redemption, sorted, with optional facet counts. Same as GET /api/v1/certificates/search. ${PAGING}`,
    input: CertificateSearchParams,
    output: listResponse(CertificateRow, true),
    noun: 'certificates',
    run: (ctx, params) => readCertificateSearch(ctx.deps, params),
  }),
  defineTool({
    name: 'get_certificate',
    title: 'Get a certificate',
    description:
      'One certificate by id (cert_ followed by 20 hex digits, as search results give it). Same as GET /api/v1/certificates/{id}; an unknown id is a not_found error.',
    input: CertificateIdPath,
    output: objectResponse(CertificateRow),
    noun: 'certificates',
    summarize: (c: CertificateRow) => `Certificate ${c.certificate_number}, ${c.county_name} ${c.tax_year}, ${c.status}, face ${c.face_amount}.`,
    run: (ctx, params) => readCertificate(ctx.deps, params),
  }),
  defineTool({
    name: 'certificates_by_parcel',
    title: 'Certificates of one parcel',
    description: `Every certificate of one parcel across all tax years, newest first: county slug and parcel id (dashes, dots and spaces ignored) are both required. Same as GET /api/v1/certificates/by-parcel; a parcel without certificates is an empty list, never an error. ${PAGING}`,
    input: ByParcelParams,
    output: listResponse(CertificateRow),
    noun: 'certificates',
    run: (ctx, params) => readByParcel(ctx.deps, params),
  }),
  defineTool({
    name: 'certificate_counts',
    title: 'Certificate counts by status',
    description:
      'How many certificates there are in each of the seven statuses, optionally for one county and one tax year; zeros included, largest first. Same as GET /api/v1/certificates/counts.',
    input: CountsParams,
    output: objectResponse(CertificateCountsObject),
    noun: 'counts',
    summarize: (d: CertificateCounts) => `${d.counts.reduce((sum, b) => sum + b.count, 0)} certificates in ${d.county ?? 'all counties'}, ${d.tax_year ?? 'all tax years'}.`,
    run: (ctx, params) => readCounts(ctx.deps, params),
  }),
  defineTool({
    name: 'certificate_fields',
    title: 'Certificate field dictionary',
    description:
      'The certificate fields: name, type, meaning, and the allowed values of enumerated fields (status, vendor). Same as GET /api/v1/certificates/fields. Takes no arguments.',
    input: NoParams,
    output: objectResponse(FieldDictionary),
    noun: 'fields',
    summarize: (d: FieldDictionary) => `${d.fields.length} certificate fields.`,
    run: (ctx, params) => readCertificateFields(ctx.deps, params),
  }),
  defineTool({
    name: 'certificate_freshness',
    title: 'Certificate data freshness',
    description:
      'How current the certificate data is: certificate count, newest tax year, last ingest and last successful source check; use it to decide whether to re-pull. Same as GET /api/v1/certificates/freshness. Takes no arguments.',
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
    description: `Annual county certificate sales (one per county and tax year): dates, platform and URL, certificates and face value offered and sold, average winning bid rate, certificates struck to the county, and status (scheduled, in_progress, completed). Same as GET /api/v1/certificate-sales/search. ${PAGING}`,
    input: SalesSearchParams,
    output: listResponse(SaleRow),
    noun: 'sales',
    run: (ctx, params) => searchSales(ctx.deps, params),
  }),
  defineTool({
    name: 'search_holders',
    title: 'Search certificate holders',
    description: `Certificate holders (investors) by name, county and size, with certificates still held and their outstanding face value. Same as GET /api/v1/holders/search. The holder dataset may not be ingested yet (meta.coverage.status not_yet_ingested); search_certificates with holder=<name> lists a holder's certificates either way. ${PAGING}`,
    input: HoldersSearchParams,
    output: listResponse(HolderRow),
    noun: 'holders',
    run: (ctx, params) => searchHolders(ctx.deps, params),
  }),
  defineTool({
    name: 'get_holder',
    title: 'Get a holder',
    description: 'One certificate holder by id (hld_<id>). Same as GET /api/v1/holders/{id}; an unknown id is a not_found error.',
    input: HolderPath,
    output: objectResponse(HolderRow),
    noun: 'holders',
    summarize: (h: HolderRow) => `${h.name}: ${h.certificate_count} certificates held, face ${h.outstanding_face_amount}.`,
    run: (ctx, params) => readHolder(ctx.deps, params),
  }),
  defineTool({
    name: 'search_lands_available',
    title: 'Search lands available for taxes',
    description: `Parcels on a county's lands-available list (offered for a tax deed after no one bid at the deed sale), by county, tax year and opening bid; sold as-is, still subject to their liens. Same as GET /api/v1/lands-available/search. The dataset may not be ingested yet (meta.coverage.status not_yet_ingested). ${PAGING}`,
    input: LandsSearchParams,
    output: listResponse(LandsRow),
    noun: 'lands-available records',
    run: (ctx, params) => searchLands(ctx.deps, params),
  }),
  defineTool({
    name: 'list_counties',
    title: 'List counties',
    description:
      'All 67 Florida counties, alphabetical by name, with each county slug (the value every county argument takes), FIPS code, sale platform, coverage status (directory_only, vendor_tracked, certificate_level) and certificate count. Same as GET /api/v1/counties. Takes no arguments.',
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
    description:
      'One county by slug (e.g. miami-dade): directory facts, sale platform and URL, coverage status, certificate count and last import. Same as GET /api/v1/counties/{county}; an unknown slug is a not_found error.',
    input: CountyPath,
    output: objectResponse(CountyRow),
    noun: 'counties',
    summarize: (c: County) => `${c.countyName} County (${c.countySlug}): ${c.coverageStatus}, ${c.certificateCount} certificates.`,
    run: (ctx, params) => readCounty(ctx.deps, params),
  }),
  defineTool({
    name: 'list_sources',
    title: 'List feed sources',
    description: `The feed registry: one row per county and tax year with the sale platform, URLs, kind, whether it is active and when it was last checked and last succeeded. Same as GET /api/v1/sources (limit defaults to 100 here). ${PAGING}`,
    input: SourcesParams,
    output: listResponse(SourceRow),
    noun: 'sources',
    run: (ctx, params) => readSources(ctx.deps, params),
  }),
  defineTool({
    name: 'get_usage',
    title: 'Credit usage this month',
    description:
      "The calling key's credit usage this calendar month (UTC): calls charged, monthly quota, percent used, reset date and plan. Same as GET /api/v1/account/usage. Free: costs no credit. Takes no arguments.",
    input: UsageParams,
    output: objectResponse(Usage),
    noun: 'usage',
    free: true,
    summarize: (u: Usage) => `${u.events_count} of ${u.monthly_quota} credits used (${u.percent_used}%) on ${u.plan}; resets ${u.reset_date}.`,
    run: (ctx) => ({ data: readUsage(ctx.access.ledger, ctx.access.principal) }),
  }),
];
