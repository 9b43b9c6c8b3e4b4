import { markIngested } from '../../services/control/ingest/freshness.ts';
import { controlName } from '../../services/domain/datasets.ts';
import type { LandsAvailableRecord } from '../../services/domain/records.ts';
import { LANDS_FORMAT, readLandsRows, toLandsInput } from '../adapters/lands-available-csv.ts';
import type { DatasetFile, DatasetFileDeps } from '../dataset-file.ts';
import { FileRejectedError } from '../errors.ts';
import type { IngestJob } from '../queue.ts';
import { buildLandsRecord } from './build-lands-record.ts';

/**
 * One county's lands-available list (adapters/lands-available-csv.ts) ->
 * LandsAvailableRecord (build-lands-record.ts) -> the lands-available alias, then
 * freshness. The job's county is the list's county. Its taxYear is ignored (each
 * row names the tax year of its own certificate) and so is its vendor (clerks
 * publish the list themselves). Records are upserted by id; the certificates
 * index is not touched.
 */
export function landsFile(job: IngestJob, deps: DatasetFileDeps, at: string): DatasetFile<LandsAvailableRecord> {
  const county = deps.registry.county(job.county);
  if (!county) throw new FileRejectedError('wrong_county', `unknown county "${job.county}"`);
  const ctx = { county, parcelBaseUrl: deps.parcelBaseUrl, ingestedAt: at };
  return {
    format: {
      dataset: 'lands-available',
      format: LANDS_FORMAT,
      rows: readLandsRows,
      build: (row) => buildLandsRecord(toLandsInput(row), ctx),
      repeated: (r, firstLine) => ({
        field: 'certificate_number',
        problem: `${r.certificate_number} (tax year ${r.tax_year}) is listed again (first on line ${firstLine})`,
      }),
    },
    bookkeep: async () => markIngested(deps.sql, controlName('lands-available'), at),
  };
}
