import type { IngestJobData } from '../../indexer/queue.ts';
import { readManifest, type SourceEntry } from '../domain/manifest.ts';

export interface ManifestJobs {
  /** One ingest job per file the manifest lists, its path absolute. */
  jobs: IngestJobData[];
  /** The source rows the manifest's sources file holds (none when it names no such file). */
  sources: SourceEntry[];
  /** Rows over every file, as the manifest counts them: what a progress bar counts to. */
  rows: number;
}

/**
 * A manifest as ingest jobs: the one mapping from its file entries to job data, shared by
 * `taxcert ingest --manifest`, `npm start`'s demo load and the ingest benchmark, which each
 * had a copy that could drift from the others. Checks of the values (a known vendor, a plausible year, the
 * file exists) are the caller's: `ingest` makes them, the shipped demo set needs none.
 */
export function manifestJobs(manifestPath: string, dataset: IngestJobData['dataset'] = 'certificates'): ManifestJobs {
  const { manifest, sources } = readManifest(manifestPath);
  return {
    jobs: manifest.files.map((f) => ({ dataset, file: f.path, vendor: f.vendor, county: f.county, taxYear: f.tax_year })),
    sources,
    rows: manifest.files.reduce((n, f) => n + f.rows, 0),
  };
}

/** A parcel job's vendor: the worker ignores it (the roll is the state's), the run records it. */
const PARCELS_VENDOR = 'manual';

/** A manifest's parcel files as ingest jobs (none when it lists none), one per county, and their rows. */
export function manifestParcelJobs(manifestPath: string): { jobs: IngestJobData[]; rows: number } {
  const files = readManifest(manifestPath).manifest.parcels ?? [];
  return {
    jobs: files.map((f) => ({
      dataset: 'parcels',
      file: f.path,
      vendor: PARCELS_VENDOR,
      county: f.county,
      // Ignored by the parcels job (each row names its assessment year); the run records it.
      taxYear: f.assessment_year,
    })),
    rows: files.reduce((n, f) => n + f.rows, 0),
  };
}
