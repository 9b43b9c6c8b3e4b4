import { markIngested } from '../../services/control/freshness.ts';
import type { ProcessDeps, QuarantinedRow } from '../process-file.ts';
import type { IngestJobData } from '../queue.ts';
import type { HolderRecord } from '../../services/domain/records.ts';
import { buildHolder, HOLDER_FORMAT, holderBuildContext, readHolderRows, toHolderInput } from './holder-file.ts';
import { type DatasetFileOutcome, loadTwoPass } from '../two-pass-load.ts';

/**
 * One holder file, top to bottom: holder-file.ts rows -> HolderRecord -> spool
 * -> _bulk into the holders alias -> freshness. Throws FileRejectedError when
 * the file must not load at all (nothing is indexed then).
 *
 * The job's county, taxYear and vendor say nothing about a holder list (it spans
 * counties and years) and are ignored. Holders are upserted by id; a holder absent
 * from the file keeps its document.
 */
export async function processHolderFile(
  job: IngestJobData & { jobId: string },
  deps: ProcessDeps,
  onQuarantine: (rows: QuarantinedRow[], fileSha256: string) => void,
): Promise<DatasetFileOutcome> {
  const at = (deps.now?.() ?? new Date()).toISOString();
  const ctx = holderBuildContext(deps.registry, at);
  const outcome = await loadTwoPass<HolderRecord>(
    job.file,
    job.jobId,
    {
      dataset: 'holders',
      format: HOLDER_FORMAT,
      rows: readHolderRows,
      build: (row) => buildHolder(toHolderInput(row), ctx),
      repeated: (h, firstLine) => `holder_name: ${JSON.stringify(h.name)} is listed again (first on line ${firstLine})`,
    },
    deps,
    onQuarantine,
  );
  markIngested(deps.db, 'holders', at);
  return outcome;
}
