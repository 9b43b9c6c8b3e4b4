import { finishRun, startRun } from '../services/control/ingest-runs.ts';
import { addQuarantined, type QuarantineInput } from '../services/control/quarantine.ts';
import { getSource, recordCheck } from '../services/control/sources.ts';
import { controlName, type FileDataset } from '../services/domain/datasets.ts';
import type { Logger } from '../services/logger.ts';
import { describeProblem } from './adapters/types.ts';
import { certificateFile } from './certificates/certificate-file.ts';
import type { DatasetFileDeps, OpenDatasetFile } from './dataset-file.ts';
import { FileRejectedError } from './errors.ts';
import { holderFile } from './holders/holder-file.ts';
import { landsFile } from './lands-available/lands-file.ts';
import type { LoadResources } from './load/load-resources.ts';
import { type LoadedFile, type LoadProgress, loadTwoPass } from './load/two-pass-load.ts';
import type { IngestJob, IngestResult } from './queue.ts';

/** Each dataset's reader, builder and bookkeeping (see dataset-file.ts). */
const DATASET_FILES: Record<FileDataset, OpenDatasetFile> = {
  certificates: certificateFile,
  holders: holderFile,
  'lands-available': landsFile,
};

/** Quarantined rows go to SQLite in transactions of this many. */
const QUARANTINE_BATCH = 500;

export interface ProcessDeps extends DatasetFileDeps {
  logger: Logger;
  /** What the files a worker loads at once share (lanes, bulk mode, refresh group). */
  load: LoadResources;
  onProgress?: (progress: LoadProgress) => void;
  now?: () => Date;
}

/**
 * The one ingest job, for every dataset, top to bottom: start the run -> the
 * dataset's reader and builder -> (in the dataset's bulk mode) the two-pass load ->
 * quarantine the refused rows -> the dataset's bookkeeping -> finish the run.
 * Throws FileRejectedError when the file must not load at all (nothing is indexed
 * or quarantined then; the worker makes it unrecoverable); any other error is the
 * queue's to retry, and because ids come from natural keys a retry ends where one
 * clean run would.
 */
export async function processFile(job: IngestJob, deps: ProcessDeps): Promise<IngestResult> {
  const started = Date.now();
  const log = deps.logger.child({ jobId: job.jobId, dataset: job.dataset, county: job.county, taxYear: job.taxYear, file: job.file });
  startRun(deps.db, {
    jobId: job.jobId,
    dataset: controlName(job.dataset),
    filePath: job.file,
    countySlug: job.county,
    taxYear: job.taxYear,
    vendor: job.vendor,
  });
  try {
    const at = (deps.now?.() ?? new Date()).toISOString();
    const file = DATASET_FILES[job.dataset](job, deps, at);

    // Bulk mode is held for the whole job, pass 1 to bookkeeping, so a worker busy with a
    // queue of files switches settings once per busy period instead of once per file.
    const loaded = await deps.load.bulkModes[job.dataset].run(async () => {
      const loaded = await loadTwoPass(job.file, job.jobId, file.format, {
        opensearch: deps.opensearch,
        prefix: deps.prefix,
        lanes: deps.load.lanes,
        refresh: deps.load.refreshGroups[job.dataset],
        onProgress: deps.onProgress,
      });
      await quarantine(deps, job, loaded);
      await file.bookkeep();
      return loaded;
    });

    const result: IngestResult = {
      jobId: job.jobId,
      dataset: job.dataset,
      file: job.file,
      county: job.county,
      taxYear: job.taxYear,
      vendor: job.vendor,
      format: loaded.format,
      rowsRead: loaded.rowsRead,
      indexed: loaded.indexed,
      updated: loaded.updated,
      quarantined: loaded.quarantined,
      durationMs: Date.now() - started,
    };
    finishRun(deps.db, job.jobId, {
      status: 'succeeded',
      rowsRead: result.rowsRead,
      rowsIndexed: result.indexed,
      rowsUpdated: result.updated,
      rowsQuarantined: result.quarantined,
      fileSha256: loaded.fileSha256,
    });
    logIngested(log, result, loaded);
    return result;
  } catch (err) {
    const rejected = err instanceof FileRejectedError;
    const message = err instanceof Error ? err.message : String(err);
    finishRun(deps.db, job.jobId, { status: 'failed', errorCode: rejected ? err.code : 'retryable_error', errorMessage: message });
    if (rejected) {
      recordFailedIngest(deps, job, `${err.code}: ${message}`);
      log.warn({ code: err.code, reason: message }, 'file rejected');
    } else log.error({ err }, 'ingest attempt failed; the queue will retry');
    throw err;
  }
}

/** The load's refused rows into the control plane, each with its line, raw text and readable reasons. */
async function quarantine(deps: Pick<ProcessDeps, 'db'>, job: IngestJob, loaded: LoadedFile): Promise<void> {
  try {
    let batch: QuarantineInput[] = [];
    for await (const row of loaded.held.rows()) {
      batch.push({
        runId: job.jobId,
        filePath: job.file,
        fileSha256: loaded.fileSha256,
        line: row.line,
        raw: row.raw,
        reasons: row.reasons.map(describeProblem),
      });
      if (batch.length === QUARANTINE_BATCH) {
        addQuarantined(deps.db, batch);
        batch = [];
      }
    }
    addQuarantined(deps.db, batch);
  } finally {
    await loaded.held.remove();
  }
}

/** A rejected file is recorded on its county-year's source row (lastError), when there is one. */
function recordFailedIngest(deps: Pick<ProcessDeps, 'db'>, job: IngestJob, error: string): void {
  if (getSource(deps.db, job.county, job.taxYear))
    recordCheck(deps.db, job.county, job.taxYear, { ok: false, error, at: new Date().toISOString() });
}

function logIngested(log: Logger, result: IngestResult, loaded: LoadedFile): void {
  // Reading memory costs more than a small file's rows; only when the line is written.
  if (!log.isLevelEnabled('info')) return;
  const mem = process.memoryUsage();
  const mb = (n: number) => Math.round(n / 2 ** 20);
  log.info(
    {
      ...result,
      timingsMs: loaded.timingsMs,
      memoryMb: { rss: mb(mem.rss), heapUsed: mb(mem.heapUsed), heapTotal: mb(mem.heapTotal), external: mb(mem.external) },
    },
    'file ingested',
  );
}
