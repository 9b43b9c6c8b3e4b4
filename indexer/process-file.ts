import type { Database } from '../services/control/db.ts';
import type { Logger } from '../services/logger.ts';
import { adapterFor } from './adapters/index.ts';
import { type BookkeepingResult, recordCertificateIngest } from './bookkeeping.ts';
import { buildCertificate } from './build-certificate.ts';
import { FileRejectedError } from './errors.ts';
import { findParcelConflicts } from './parcel-conflicts.ts';
import type { IngestJobData } from './queue.ts';
import { aliasName } from '../services/domain/datasets.ts';
import { createHolderIds } from '../services/domain/ids.ts';
import type { CertificateRecord } from '../services/domain/records.ts';
import type { Registry } from '../services/domain/registry.ts';
import { type DatasetFileOutcome, type LoadDeps, loadTwoPass, type QuarantinedRow } from './two-pass-load.ts';

export type { QuarantinedRow };

export interface ProcessDeps extends LoadDeps {
  db: Database;
  registry: Registry;
  logger: Logger;
  parcelBaseUrl: string;
  now?: () => Date;
}

export interface FileOutcome extends DatasetFileOutcome {
  bookkeeping: BookkeepingResult;
}

/**
 * One certificate file, top to bottom: the county's channel names the format ->
 * its adapter reads rows -> buildCertificate makes canonical records -> the
 * two-pass load (spool, then _bulk) -> bookkeeping read back from the index.
 * Throws FileRejectedError when the file must not load at all.
 */
export async function processCertificateFile(
  job: IngestJobData & { jobId: string },
  deps: ProcessDeps,
  onQuarantine: (rows: QuarantinedRow[], fileSha256: string) => void,
): Promise<FileOutcome> {
  const county = deps.registry.county(job.county);
  if (!county) throw new FileRejectedError('wrong_county', `unknown county "${job.county}"`);
  const channel = deps.registry.channelForVendor(job.vendor, county);
  if (!channel) throw new FileRejectedError('unknown_format', `no file format is registered for vendor "${job.vendor}"`);
  const adapter = adapterFor(channel.format);
  if (!adapter) throw new FileRejectedError('unknown_format', `format "${channel.format}" has no adapter`);

  const ingestedAt = (deps.now?.() ?? new Date()).toISOString();
  const ctx = {
    county,
    taxYear: job.taxYear,
    vendor: channel.certificateVendor,
    parcelBaseUrl: deps.parcelBaseUrl,
    ingestedAt,
    holderIds: createHolderIds(),
  };
  const loaded = await loadTwoPass<CertificateRecord>(
    job.file,
    job.jobId,
    {
      dataset: 'certificates',
      format: channel.format,
      rows: (source) => adapter.rows(source, { county, taxYear: job.taxYear }),
      build: (row) => {
        const { input, reasons } = adapter.toInput(row);
        return buildCertificate(input, reasons, ctx);
      },
      repeated: (record, firstLine) =>
        `certificate_number: ${record.certificate_number} is listed again (first on line ${firstLine})`,
      conflicts: (docs) => findParcelConflicts(deps.opensearch, aliasName(deps.prefix, 'certificates'), county.slug, job.taxYear, docs),
    },
    deps,
    onQuarantine,
  );

  const bookkeeping = await recordCertificateIngest(deps, {
    county,
    taxYear: job.taxYear,
    vendor: job.vendor,
    channel,
    at: ingestedAt,
    today: ingestedAt.slice(0, 10),
  });
  return { ...loaded, bookkeeping };
}
