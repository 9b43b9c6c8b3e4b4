import { markIngested } from '../../services/control/ingest/freshness.ts';
import { loadCountyCentroids } from '../../services/domain/county-centroids.ts';
import { controlName } from '../../services/domain/datasets.ts';
import type { ParcelRecord } from '../../services/domain/parcel-record.ts';
import { PARCELS_FORMAT } from '../../services/formats/parcels-csv.ts';
import { readParcelRows, toParcelInput } from '../adapters/parcels-csv.ts';
import type { DatasetFile, DatasetFileDeps } from '../dataset-file.ts';
import { FileRejectedError } from '../errors.ts';
import type { IngestJob } from '../queue.ts';
import { buildParcelRecord } from './build-parcel-record.ts';
import { joinParcelsOntoCertificates } from './join-certificates.ts';

/**
 * One county's parcel file (adapters/parcels-csv.ts) -> ParcelRecord (build-parcel-record.ts) ->
 * the parcels alias; once searchable, the county's certificates take the facts that changed
 * (join-certificates.ts), then freshness. The job's county is the file's county; its tax year and
 * vendor are ignored (each row names its assessment year; the roll is the state's). Rows are
 * upserted by id (`${county}:${parcel}`), so a parcel missing from a later file keeps its row.
 */
export function parcelsFile(job: IngestJob, deps: DatasetFileDeps, at: string): DatasetFile<ParcelRecord> {
  const county = deps.registry.county(job.county);
  if (!county) throw new FileRejectedError('wrong_county', `unknown county "${job.county}"`);
  const centroid = loadCountyCentroids().get(county.slug);
  if (!centroid) throw new FileRejectedError('wrong_county', `no interior point is known for county "${job.county}"`);
  const ctx = { county, counties: deps.registry.counties, centroid, ingestedAt: at };
  let joinedMs = 0;
  return {
    format: {
      dataset: 'parcels',
      format: PARCELS_FORMAT,
      rows: readParcelRows,
      build: (row) => buildParcelRecord(toParcelInput(row), ctx),
      repeated: (r, firstLine) => ({ field: 'parcel_id', problem: `${r.parcel_id} is listed again (first on line ${firstLine})` }),
    },
    timingsMs: () => ({ joinCertificates: joinedMs }),
    bookkeep: async () => {
      const started = Date.now();
      await joinParcelsOntoCertificates(deps.opensearch, deps.prefix, { countySlug: county.slug, refresh: deps.refreshCertificates });
      joinedMs = Date.now() - started;
      await markIngested(deps.sql, controlName('parcels'), at);
    },
  };
}
