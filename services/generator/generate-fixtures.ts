import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { FormatWriter } from './writers/format-writer.ts';
import { type FilePlan, type GenerateOptions, type GeneratedState, generateState } from './generate-state.ts';
import { writerFor as defaultWriterFor } from './writers/index.ts';
import { writeParcelsCsv } from './writers/parcels-csv.ts';
import type { Writable } from 'node:stream';

/**
 * Writes a whole data set: one file per (county, tax year) in the county's
 * platform format, one parcels-csv file per county (its parcel roll with
 * centroids), plus manifest.json (what `taxcert ingest --manifest` reads)
 * and sources.json (spec 2.7 source rows). Nothing in it depends on the clock:
 * the same options give the same bytes.
 */

export type WriterLookup = (format: string) => FormatWriter | undefined;

export interface FixtureOptions extends GenerateOptions {
  out: string;
  /** Defaults to writerFor from ./writers/index.ts. */
  writerFor?: WriterLookup;
  /**
   * Writes each data file gzipped (name + .gz), which ingest reads as is: the demo set
   * of 55,000 certificates is ~22 MB of text and must stay under 5 MB in the repository.
   */
  gzip?: boolean;
}

export interface FixtureSummary {
  files: number;
  certificates: number;
  counties: number;
  /** Rows over the parcel files (one per county). */
  parcels: number;
}

export interface ManifestEntry {
  path: string;
  vendor: string;
  county: string;
  tax_year: number;
  rows: number;
}

/** A parcel file: one per county, loaded with `taxcert ingest --dataset parcels`. */
export interface ParcelManifestEntry {
  path: string;
  county: string;
  assessment_year: number;
  rows: number;
}

export interface SourceRow {
  countySlug: string;
  taxYear: number;
  vendor: string;
  saleUrl: string | null;
  downloadUrl: string | null;
  sourceKind: 'cert_sale_portal' | 'bulk_download';
  requiresLogin: boolean;
  active: boolean;
  notes: string;
}

/** The data set cannot be written as asked: a format without a writer, or a writer that lost rows. */
export class FixtureError extends Error {
  override name = 'FixtureError';
  constructor(
    readonly code: 'writer_missing' | 'row_count',
    message: string,
  ) {
    super(message);
  }
}

/** File extension for a format code such as lienport-csv or taxgavel-fixed. */
export function extensionFor(format: string): string {
  const last = format.split('-').pop() ?? format;
  return last === 'fixed' || last === 'pipe' ? 'txt' : last;
}

function relativePath(file: FilePlan, gzip: boolean): string {
  return `${file.county.slug}/${file.taxYear}.${extensionFor(file.channel.format)}${gzip ? '.gz' : ''}`;
}

/** Source rows: every certificate-level county-year file, plus the monitored (vendor-tracked) portals, which have no files yet. */
export function sourceRows(state: GeneratedState): SourceRow[] {
  const rows: SourceRow[] = state.files.map((f) => {
    const direct = f.channel.channel === 'county_local';
    return {
      countySlug: f.county.slug,
      taxYear: f.taxYear,
      vendor: f.channel.channel,
      saleUrl: f.channel.saleUrl,
      // No platform or tax collector publishes an export URL we could stand behind.
      downloadUrl: null,
      sourceKind: direct ? 'bulk_download' : 'cert_sale_portal',
      requiresLogin: !direct,
      active: true,
      notes: `${f.rows} certificates; sale ${f.saleDates[0]}${f.saleDates.length > 1 ? ` to ${f.saleDates[f.saleDates.length - 1]}` : ''}`,
    };
  });
  const latest = state.taxYears[state.taxYears.length - 1]!;
  for (const c of state.counties) {
    if (c.coverage !== 'vendor_tracked' || c.channel === null) continue;
    rows.push({
      countySlug: c.county.slug,
      taxYear: latest,
      vendor: c.channel.channel,
      saleUrl: c.channel.saleUrl,
      downloadUrl: null,
      sourceKind: 'cert_sale_portal',
      requiresLogin: c.channel.channel !== 'county_local',
      active: true,
      notes: 'portal monitored; certificate records are being onboarded',
    });
  }
  return rows;
}

export async function generateFixtures(options: FixtureOptions): Promise<FixtureSummary> {
  const state = generateState(options);
  const writerFor = options.writerFor ?? defaultWriterFor;
  // Fail before writing anything when a format has no writer.
  for (const f of state.files)
    if (!writerFor(f.channel.format)) throw new FixtureError('writer_missing', `no fixture writer for format ${f.channel.format}`);

  await mkdir(options.out, { recursive: true });
  const entries: ManifestEntry[] = [];
  let certificates = 0;
  for (const file of state.files) {
    const path = relativePath(file, options.gzip === true);
    await mkdir(join(options.out, file.county.slug), { recursive: true });
    const rows = await writeDataFile(join(options.out, path), options.gzip === true, (out) =>
      writerFor(file.channel.format)!.write(state.records(file), out, { county: file.county, taxYear: file.taxYear, asOf: options.today }),
    );
    if (rows !== file.rows) throw new FixtureError('row_count', `${path}: writer wrote ${rows} rows, expected ${file.rows}`);
    entries.push({ path, vendor: file.channel.channel, county: file.county.slug, tax_year: file.taxYear, rows });
    certificates += rows;
  }

  const parcels: ParcelManifestEntry[] = [];
  for (const file of state.parcelFiles) {
    const path = `${file.county.slug}/parcels-${file.assessmentYear}.csv${options.gzip ? '.gz' : ''}`;
    await mkdir(join(options.out, file.county.slug), { recursive: true });
    const rows = await writeDataFile(join(options.out, path), options.gzip === true, (out) => writeParcelsCsv(state.parcelRows(file), out));
    if (rows !== file.rows) throw new FixtureError('row_count', `${path}: writer wrote ${rows} rows, expected ${file.rows}`);
    parcels.push({ path, county: file.county.slug, assessment_year: file.assessmentYear, rows });
  }

  const manifest = {
    generated_at: `${options.today}T00:00:00.000Z`,
    seed: options.seed,
    certificates,
    files: entries,
    parcels,
    sources: 'sources.json',
  };
  await writeFile(join(options.out, 'sources.json'), `${JSON.stringify(sourceRows(state), null, 2)}\n`);
  await writeFile(join(options.out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return {
    files: entries.length,
    certificates,
    counties: new Set(entries.map((e) => e.county)).size,
    parcels: parcels.reduce((n, p) => n + p.rows, 0),
  };
}

/** One data file written through `write`, gzipped (level 9, no name or time: same rows, same bytes) when asked. */
async function writeDataFile(path: string, gzip: boolean, write: (out: Writable) => Promise<number>): Promise<number> {
  const target = createWriteStream(path);
  const gz = gzip ? createGzip({ level: 9 }) : null;
  const out = gz ?? target;
  if (gz) gz.pipe(target);
  let rows: number;
  try {
    rows = await write(out);
  } catch (err) {
    out.destroy();
    target.destroy();
    throw err;
  }
  out.end();
  await finished(target);
  return rows;
}
