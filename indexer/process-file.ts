import { finishRun, startRun } from '../services/control/ingest/ingest-runs.ts';
import { addQuarantined, type QuarantineInput } from '../services/control/ingest/quarantine.ts';
import { getSource, recordCheck } from '../services/control/ingest/sources.ts';
import { controlName, type FileDataset } from '../services/domain/datasets.ts';
import type { Logger } from '../services/logger.ts';
import { describeProblem } from './adapters/types.ts';
import { certificateFile } from './certificates/certificate-file.ts';
import type { DatasetFileDeps, OpenDatasetFile } from './dataset-file.ts';
import { FileRejectedError, failureCode, publicRejection } from './errors.ts';
import { holderFile } from './holders/holder-file.ts';
import { landsFile } from './lands-available/lands-file.ts';
import { parcelsFile } from './parcels/parcels-file.ts';
import { inLoadMode, type LoadResources } from './load/load-resources.ts';
import { indexFile, type LoadDeps, type LoadOutcome, type LoadProgress, type ValidatedFile, validateFile } from './load/two-pass-load.ts';
import type { IngestJob, IngestResult } from './queue.ts';

/** Each dataset's reader, builder and bookkeeping (see dataset-file.ts). */
const DATASET_FILES: Record<FileDataset, OpenDatasetFile> = {
  certificates: certificateFile,
  holders: holderFile,
  'lands-available': landsFile,
  parcels: parcelsFile,
};

/** Quarantined rows go to SQLite in transactions of this many. */
const QUARANTINE_BATCH = 500;

export interface ProcessDeps extends DatasetFileDeps {
  logger: Logger;
  /** What the files a worker loads at once share (lanes, bulk mode, refresh group). */
  load: LoadResources;
  onProgress?: (progress: LoadProgress) => void;
}

/**
 * The one ingest job, for every dataset, top to bottom: start the run -> the
 * dataset's reader and builder -> (in the dataset's bulk mode) pass 1 -> fail a file
 * with no valid row -> the dataset's conflict check (which stages the change feed's
 * events) -> pass 2 -> publish the staged events -> quarantine the refused rows -> the
 * dataset's bookkeeping -> finish the run.
 * Throws FileRejectedError when the file must not load at all; the worker makes it
 * unrecoverable. Nothing is indexed then, and nothing quarantined either unless the
 * file was read whole (no valid rows): its refused rows then say why it failed.
 * Any other error is the queue's to retry (but a request the engine refused, see
 * errors.ts jobFailure), and because ids come from natural keys
 * a retry ends where one clean run would.
 */
export async function processFile(job: IngestJob, deps: ProcessDeps): Promise<IngestResult> {
  const started = Date.now();
  const log = deps.logger.child({ jobId: job.jobId, dataset: job.dataset, county: job.county, taxYear: job.taxYear, file: job.file });
  await startRun(deps.sql, {
    jobId: job.jobId,
    dataset: controlName(job.dataset),
    filePath: job.file,
    countySlug: job.county,
    taxYear: job.taxYear,
    vendor: job.vendor,
  });
  try {
    const at = (deps.now?.() ?? new Date()).toISOString();
    const file = DATASET_FILES[job.dataset](
      job,
      {
        ...deps,
        refreshCertificates: deps.load.refreshCertificates,
        rollupLedger: deps.load.rollupLedger,
        heldRollups: deps.load.heldRollups,
      },
      at,
    );
    const loadDeps: LoadDeps = {
      opensearch: deps.opensearch,
      prefix: deps.prefix,
      lanes: deps.load.lanes,
      refresh: deps.load.refreshGroups[job.dataset],
      withinSend: file.withinSend,
      onProgress: deps.onProgress,
    };

    // Bulk mode is held for the whole job, pass 1 to bookkeeping, so a worker busy with a
    // queue of files switches settings once per busy period instead of once per file; a small
    // file on an idle worker loads without it (load-resources.ts).
    const loaded = await inLoadMode(deps.load, job.dataset, job.file, async () => {
      // Pass 1: every row read and validated into spools on disk.
      const validated = await validateFile(job.file, job.jobId, file.format, loadDeps);
      try {
        // A file whose every row is refused is no load: it fails, its refused rows saying why.
        if (validated.valid === 0) await refuseFile(deps, job, validated, 'is valid');
        // The dataset's conflict check: valid rows that must not replace what the index holds.
        if (file.conflicts) {
          await validated.setAside(await file.conflicts(validated.docs(), validated.fileSha256));
          if (validated.valid === 0) await refuseFile(deps, job, validated, 'can load');
        }
        // Pass 2: the spool to the index, searchable when it returns.
        const loaded = await indexFile(validated, job.dataset, loadDeps);
        // The change feed: the changes staged between the passes, recorded now that they are searchable.
        await file.publishChanges?.(validated.refusedIds);
        await quarantine(deps, job, validated);
        const bookkeepStarted = Date.now();
        await file.bookkeep();
        return {
          ...loaded,
          changed: file.changedCount?.() ?? null,
          timingsMs: { ...loaded.timingsMs, ...file.timingsMs?.(), bookkeep: Date.now() - bookkeepStarted },
        };
      } finally {
        await validated.discard();
      }
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
      // A document the engine refused may have been counted as changed: never more than it replaced.
      ...(loaded.changed === null
        ? {}
        : { changed: Math.min(loaded.changed, loaded.updated), unchanged: loaded.updated - Math.min(loaded.changed, loaded.updated) }),
      durationMs: Date.now() - started,
    };
    await finishRun(deps.sql, job.jobId, {
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
    await finishRun(deps.sql, job.jobId, { status: 'failed', errorCode: failureCode(err), errorMessage: message });
    if (rejected) {
      // Customers see the code and a fixed sentence; the full message stays in the run above.
      await recordFailedIngest(deps, job, publicRejection(err.code));
      log.warn({ code: err.code, reason: message }, 'file rejected');
    } else if (failureCode(err) === 'retryable_error') log.error({ err }, 'ingest attempt failed; the queue will retry');
    else log.error({ err }, 'ingest failed: the engine refused a request, so the queue does not retry it');
    throw err;
  }
}

/** The file's refused rows into the control plane, each with its line, raw text and readable reasons. */
async function quarantine(deps: Pick<ProcessDeps, 'sql'>, job: IngestJob, validated: ValidatedFile): Promise<void> {
  let batch: QuarantineInput[] = [];
  for await (const row of validated.refusedRows()) {
    batch.push({
      runId: job.jobId,
      filePath: job.file,
      fileSha256: validated.fileSha256,
      line: row.line,
      raw: row.raw,
      reasons: row.reasons.map(describeProblem),
    });
    if (batch.length === QUARANTINE_BATCH) {
      await addQuarantined(deps.sql, batch);
      batch = [];
    }
  }
  await addQuarantined(deps.sql, batch);
}

/**
 * A file read whole whose every row was refused must not count as a success (it once reported
 * success and left a source row with lastSuccessAt). Its refused rows are quarantined under this run to say
 * why, and the file fails; no source is registered.
 */
async function refuseFile(
  deps: Pick<ProcessDeps, 'sql'>,
  job: IngestJob,
  validated: ValidatedFile,
  verb: 'is valid' | 'can load',
): Promise<never> {
  await quarantine(deps, job, validated);
  throw new FileRejectedError(
    'no_valid_rows',
    `none of the ${validated.rowsRead} ${job.dataset} rows of ${job.file} ${verb}: all were quarantined (taxcert quarantine list --run ${job.jobId} says why)`,
  );
}

/** A rejected file is recorded on its county-year's source row (lastError, public), when there is one. */
async function recordFailedIngest(deps: Pick<ProcessDeps, 'sql'>, job: IngestJob, error: string): Promise<void> {
  if (await getSource(deps.sql, job.county, job.taxYear))
    await recordCheck(deps.sql, job.county, job.taxYear, { ok: false, error, at: new Date().toISOString() });
}

function logIngested(log: Logger, result: IngestResult, loaded: LoadOutcome): void {
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
