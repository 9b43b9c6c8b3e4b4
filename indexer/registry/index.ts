import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { z } from 'zod';

/**
 * The sale-channel registry (platforms.json) and the county facts (the seed CSV)
 * are data kept in the repo; this module is their only reader.
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
    saleUrlTemplate: z.string(),
  }),
  manual: z.object({ channel: z.literal('manual'), certificateVendor: z.string(), format: z.string() }),
  counties: z.record(z.string(), z.object({ channel: z.string().nullable() })),
});

const CountyRow = z.object({
  county_name: z.string().min(1),
  county_slug: z.string().regex(/^[a-z][a-z-]+$/),
  county_fips: z.string().regex(/^\d{5}$/),
  dor_county_number: z.string().regex(/^\d{1,2}$/),
});

export interface County {
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
  counties: County[];
  county(slug: string): County | undefined;
  channel(county: County): Channel | null;
  /** The channel for an explicit vendor code (a platform, tax_collector, county_local or manual). */
  channelForVendor(vendor: string, county: County): Channel | null;
}

const here = new URL('.', import.meta.url);
const seedCsv = new URL('../../services/control/seed/florida-counties.csv', import.meta.url);

export function loadRegistry(): Registry {
  const file = RegistryFile.parse(JSON.parse(readFileSync(new URL('platforms.json', here), 'utf8')));
  const rows = z.array(CountyRow).parse(parse(readFileSync(seedCsv), { columns: true, skip_empty_lines: true }));
  const counties: County[] = rows.map((r) => ({
    name: r.county_name,
    slug: r.county_slug,
    fips: r.county_fips,
    dor: r.dor_county_number.padStart(2, '0'),
    channel: file.counties[r.county_slug]?.channel ?? null,
  }));
  const bySlug = new Map(counties.map((c) => [c.slug, c]));
  const byCode = new Map(file.platforms.map((p) => [p.code, p]));
  const url = (template: string, county: County) => template.replace('{county}', county.slug.replace(/-/g, ''));

  const channelForVendor = (vendor: string, county: County): Channel | null => {
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
        saleUrl: url(file.direct.saleUrlTemplate, county),
      };
    if (vendor === 'manual')
      return { channel: 'manual', certificateVendor: file.manual.certificateVendor, format: file.manual.format, saleUrl: null };
    return null;
  };

  return {
    platforms: file.platforms,
    counties,
    county: (slug) => bySlug.get(slug),
    channel: (county) => (county.channel === null ? null : channelForVendor(county.channel, county)),
    channelForVendor,
  };
}
