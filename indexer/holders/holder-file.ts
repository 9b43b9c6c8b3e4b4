import { markIngested } from '../../services/control/ingest/freshness.ts';
import { controlName } from '../../services/domain/datasets.ts';
import type { HolderRecord } from '../../services/domain/records.ts';
import { HOLDER_FORMAT, readHolderRows, toHolderInput } from '../adapters/holders-csv.ts';
import type { DatasetFile, DatasetFileDeps } from '../dataset-file.ts';
import type { IngestJob } from '../queue.ts';
import { buildHolder, holderBuildContext } from './build-holder.ts';

/**
 * A holder list (adapters/holders-csv.ts) -> HolderRecord (build-holder.ts) ->
 * the holders alias, then freshness. The job's county, taxYear and vendor say
 * nothing about a holder list (it spans counties and years) and are ignored.
 * Holders are upserted by id; a holder absent from the file keeps its document.
 */
export function holderFile(_job: IngestJob, deps: DatasetFileDeps, at: string): DatasetFile<HolderRecord> {
  const ctx = holderBuildContext(deps.registry, at);
  return {
    format: {
      dataset: 'holders',
      format: HOLDER_FORMAT,
      rows: readHolderRows,
      build: (row) => buildHolder(toHolderInput(row), ctx),
      repeated: (h, firstLine) => ({
        field: 'holder_name',
        problem: `${JSON.stringify(h.name)} is listed again (first on line ${firstLine})`,
      }),
    },
    bookkeep: async () => markIngested(deps.sql, controlName('holders'), at),
  };
}
