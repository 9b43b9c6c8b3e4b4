/**
 * Bulk file names: the whole identity of a file, readable by a person and parsed back by the
 * download route. Only names this module writes are ever served; anything else (a `..`, a
 * slash, a percent-encoded separator, a manifest sidecar) fails the pattern and is a 404
 * before the storage is asked.
 *
 *   <dataset>.<county>.<tax year>.snapshot.<ext>   certificates, certificate sales, lands available
 *   <dataset>.snapshot.<ext>                       counties, sources and holders (one file each)
 *   <dataset>.<YYYY-MM-DD>.delta.<ext>             one Florida calendar day of changes (certificates, sales)
 *
 * This list is the one the manifest's `dataset` filter, its entries, the OpenAPI document and the
 * MCP tool all take their values from.
 */
export const BULK_DATASETS = ['certificates', 'certificate-sales', 'lands-available', 'holders', 'counties', 'sources'] as const;
export type BulkDataset = (typeof BULK_DATASETS)[number];

export const BULK_FORMATS = ['parquet', 'ndjson', 'csv'] as const;
export type BulkFormat = (typeof BULK_FORMATS)[number];

export const BULK_KINDS = ['snapshot', 'delta'] as const;
export type BulkKind = (typeof BULK_KINDS)[number];

const EXTENSIONS: Record<BulkFormat, string> = { parquet: 'parquet', ndjson: 'ndjson.gz', csv: 'csv.gz' };

export interface BulkFileKey {
  dataset: BulkDataset;
  kind: BulkKind;
  format: BulkFormat;
  /** Snapshots of the per-county datasets. */
  county: string | null;
  taxYear: number | null;
  /** Deltas: the Florida calendar day. */
  day: string | null;
}

export function bulkFileName(key: BulkFileKey): string {
  const ext = EXTENSIONS[key.format];
  if (key.kind === 'delta') return `${key.dataset}.${key.day}.delta.${ext}`;
  if (key.county !== null) return `${key.dataset}.${key.county}.${key.taxYear}.snapshot.${ext}`;
  return `${key.dataset}.snapshot.${ext}`;
}

const DATASET = BULK_DATASETS.join('|');
const EXT = '(parquet|ndjson\\.gz|csv\\.gz)';
const SNAPSHOT = new RegExp(`^(${DATASET})\\.(?:([a-z][a-z-]{1,30}[a-z])\\.(\\d{4})\\.)?snapshot\\.${EXT}$`);
const DELTA = new RegExp(`^(${DATASET})\\.(\\d{4}-\\d{2}-\\d{2})\\.delta\\.${EXT}$`);

function formatOf(ext: string): BulkFormat {
  return (Object.entries(EXTENSIONS).find(([, e]) => e === ext)?.[0] ?? 'parquet') as BulkFormat;
}

/** The key a served name stands for, or null when the name is not one this service writes. */
export function parseBulkFileName(name: string): BulkFileKey | null {
  if (name.length > 120) return null;
  const snap = SNAPSHOT.exec(name);
  if (snap) {
    const [, dataset, county, year, ext] = snap;
    return {
      dataset: dataset as BulkDataset,
      kind: 'snapshot',
      format: formatOf(ext!),
      county: county ?? null,
      taxYear: year === undefined ? null : Number(year),
      day: null,
    };
  }
  const delta = DELTA.exec(name);
  if (delta) {
    const [, dataset, day, ext] = delta;
    return { dataset: dataset as BulkDataset, kind: 'delta', format: formatOf(ext!), county: null, taxYear: null, day: day! };
  }
  return null;
}

/** The sidecar holding a file's manifest entry; never served (it fails both patterns). */
export function manifestName(name: string): string {
  return `${name}.manifest.json`;
}

export const MANIFEST_SUFFIX = '.manifest.json';
