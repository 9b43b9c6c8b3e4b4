import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';

/**
 * The sale-channel registry (data/platforms.json) and the county facts
 * (data/florida-counties.csv) are data kept in the repo; this module is their only
 * reader. A process loads them once at start-up (loadRegistry) and passes the
 * Registry down to whatever needs it.
 */

const Platform = z.object({
  code: z.string().regex(/^[a-z][a-z0-9_]*$/),
  spec: z.string(),
  label: z.string(),
  format: z.string(),
  saleUrlTemplate: z.string(),
});
export type Platform = z.infer<typeof Platform>;

const RegistryFile = z.object({
  platforms: z.array(Platform).length(6),
  direct: z.object({
    certificateVendor: z.literal('tax_collector'),
    channel: z.literal('county_local'),
    format: z.string(),
  }),
  manual: z.object({ channel: z.literal('manual'), certificateVendor: z.string(), format: z.string() }),
  counties: z.record(z.string(), z.object({ channel: z.string().nullable() })),
});

const CountySeedRow = z.object({
  county_name: z.string().min(1),
  county_slug: z.string().regex(/^[a-z][a-z-]+$/),
  county_fips: z.string().regex(/^\d{5}$/),
  dor_county_number: z.string().regex(/^\d{1,2}$/),
});

/** A county as the registry knows it (facts and channel); the control plane's county record is County in services/control/ingest/counties.ts. */
export interface RegistryCounty {
  name: string;
  slug: string;
  fips: string;
  /** State revenue department county number, two digits as a string. */
  dor: string;
  /** A platform code, county_local, manual, or null when the channel is not modeled. */
  channel: string | null;
}

/** How a county's certificates reach us: the vendor each record carries and the file format. */
export interface Channel {
  /** Value for county.taxCertificateVendor and source.vendor. */
  channel: string;
  /** Value for certificate.vendor and sale.vendor. */
  certificateVendor: string;
  format: string;
  saleUrl: string | null;
}

export interface Registry {
  platforms: Platform[];
  counties: RegistryCounty[];
  /** The channel codes a source may name: every platform code, county_local and manual. */
  vendorCodes: ReadonlySet<string>;
  county(slug: string): RegistryCounty | undefined;
  channel(county: RegistryCounty): Channel | null;
  /** The channel for an explicit vendor code (a platform, tax_collector, county_local or manual). */
  channelForVendor(vendor: string, county: RegistryCounty): Channel | null;
}

const platformsJson = new URL('data/platforms.json', import.meta.url);
const countiesCsv = new URL('data/florida-counties.csv', import.meta.url);

export function loadRegistry(): Registry {
  const file = RegistryFile.parse(JSON.parse(readFileSync(platformsJson, 'utf8')));
  const rows = z.array(CountySeedRow).parse(parse(readFileSync(countiesCsv), { columns: true, skip_empty_lines: true }));
  const counties: RegistryCounty[] = rows.map((r) => ({
    name: r.county_name,
    slug: r.county_slug,
    fips: r.county_fips,
    dor: r.dor_county_number.padStart(2, '0'),
    channel: file.counties[r.county_slug]?.channel ?? null,
  }));
  const bySlug = new Map(counties.map((c) => [c.slug, c]));
  const byCode = new Map(file.platforms.map((p) => [p.code, p]));
  const url = (template: string, county: RegistryCounty) => template.replace('{county}', county.slug.replace(/-/g, ''));

  const channelForVendor = (vendor: string, county: RegistryCounty): Channel | null => {
    const platform = byCode.get(vendor);
    if (platform)
      return {
        channel: platform.code,
        certificateVendor: platform.code,
        format: platform.format,
        saleUrl: url(platform.saleUrlTemplate, county),
      };
    if (vendor === 'county_local' || vendor === file.direct.certificateVendor)
      return {
        channel: 'county_local',
        certificateVendor: file.direct.certificateVendor,
        format: file.direct.format,
        // A tax collector's own sale page is not guessed from a pattern: we do not invent government URLs.
        saleUrl: null,
      };
    if (vendor === 'manual')
      return { channel: 'manual', certificateVendor: file.manual.certificateVendor, format: file.manual.format, saleUrl: null };
    return null;
  };

  return {
    platforms: file.platforms,
    counties,
    vendorCodes: new Set([...file.platforms.map((p) => p.code), 'county_local', 'manual']),
    county: (slug) => bySlug.get(slug),
    channel: (county) => (county.channel === null ? null : channelForVendor(county.channel, county)),
    channelForVendor,
  };
}
