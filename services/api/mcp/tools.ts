import { z } from 'zod';
import type { County } from '../../control/counties.ts';
import { objectResponse } from '../envelope.ts';
import { CountiesParams, CountyPath } from '../routes/counties/params.ts';
import { readCounties, readCounty } from '../routes/counties/read.ts';
import { CountyRow } from '../routes/counties/row.ts';
import { defineTool, type Tool } from './tool.ts';

/**
 * The tool table: one tool per REST read, each `{ input: <the route's params>,
 * run: <the route's read function> }`. Descriptions say when to use the tool;
 * what each argument means comes from the parameter schemas (params.ts).
 */
export const TOOLS: readonly Tool[] = [
  defineTool({
    name: 'list_counties',
    title: 'List counties',
    description:
      'All 67 Florida counties, alphabetical by name, with each county slug (the value every county filter takes), FIPS code, sale platform, coverage status (directory_only, vendor_tracked, certificate_level) and certificate count. Same as GET /api/v1/counties. Takes no arguments.',
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
      'One county by slug (e.g. miami-dade, st. johns): directory facts, sale platform and URL, coverage status, certificate count and last import. Same as GET /api/v1/counties/{county}; an unknown slug is a not_found error.',
    input: CountyPath,
    output: objectResponse(CountyRow),
    noun: 'counties',
    summarize: (c: County) => `${c.countyName} County (${c.countySlug}): ${c.coverageStatus}, ${c.certificateCount} certificates.`,
    run: (ctx, params) => readCounty(ctx.deps, params),
  }),
];
