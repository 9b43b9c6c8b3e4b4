import { markIngested } from '../../services/control/freshness.ts';
import { controlName } from '../../services/domain/datasets.ts';
import { FileRejectedError } from '../errors.ts';
import { type DatasetFileOutcome, loadTwoPass } from '../two-pass-load.ts';
import type { ProcessDeps, QuarantinedRow } from '../process-file.ts';
import type { IngestJobData } from '../queue.ts';
import type { LandsAvailableRecord } from '../../services/domain/records.ts';
import { buildLandsRecord, LANDS_FORMAT, readLandsRows, toLandsInput } from './lands-file.ts';

/**
 * One county's lands-available list, top to bottom: lands-file.ts rows ->
 * LandsAvailableRecord -> spool -> _bulk into the lands-available alias ->
 * freshness. Throws FileRejectedError when the file must not load at all
 * (nothing is indexed then).
 *
 * The job's county is the list's county. Its taxYear is ignored (each row names
 * the tax year of its own certificate) and so is its vendor (clerks publish the
 * list themselves). Records are upserted by id; the certificates index is not
 * touched.
 */
export async function processLandsAvailableFile(
  job: IngestJobData & { jobId: string },
  deps: ProcessDeps,
  onQuarantine: (rows: QuarantinedRow[], fileSha256: string) => void,
): Promise<DatasetFileOutcome> {
  const county = deps.registry.county(job.county);
  if (!county) throw new FileRejectedError('wrong_county', `unknown county "${job.county}"`);
  const at = (deps.now?.() ?? new Date()).toISOString();
  const ctx = { county, parcelBaseUrl: deps.parcelBaseUrl, ingestedAt: at };
  const outcome = await loadTwoPass<LandsAvailableRecord>(
    job.file,
    job.jobId,
    {
      dataset: 'lands-available',
      format: LANDS_FORMAT,
      rows: readLandsRows,
      build: (row) => buildLandsRecord(toLandsInput(row), ctx),
      repeated: (r, firstLine) =>
        `certificate_number: ${r.certificate_number} (tax year ${r.tax_year}) is listed again (first on line ${firstLine})`,
    },
    deps,
    onQuarantine,
  );
  markIngested(deps.db, controlName('lands-available'), at);
  return outcome;
}
