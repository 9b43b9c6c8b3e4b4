import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import type { Client } from '@opensearch-project/opensearch';
import type { Database } from '../services/control/db.ts';
import type { Logger } from '../services/logger.ts';
import { adapterFor } from './adapters/index.ts';
import { buildCertificate } from './build-certificate.ts';
import { type BookkeepingResult, recordCertificateIngest } from './bookkeeping.ts';
import { createBulkWriter } from './bulk.ts';
import { FileRejectedError } from './errors.ts';
import { aliasName } from './indices/names.ts';
import type { IngestJobData } from './queue.ts';
import type { Registry } from './registry/index.ts';
import { SeenIds } from './seen-ids.ts';
import { SharedBulkMode } from './shared-bulk-mode.ts';
import { readSpool, SpoolWriter } from './spool.ts';

export interface QuarantinedRow {
  line: number;
  raw: string;
  reasons: string[];
}

export interface ProcessDeps {
  opensearch: Client;
  db: Database;
  registry: Registry;
  logger: Logger;
  prefix: string;
  replicas: number;
  parcelBaseUrl: string;
  /** Refresh off while this worker loads, shared by the files it runs at once; default: this file alone. */
  bulkMode?: SharedBulkMode;
  /** Called every few thousand rows; the worker forwards it as job progress. */
  onProgress?: (progress: { phase: 'validating' | 'indexing'; rows: number }) => void;
  now?: () => Date;
}

export interface FileOutcome {
  format: string;
  fileSha256: string;
  rowsRead: number;
  indexed: number;
  updated: number;
  quarantined: number;
  bookkeeping: BookkeepingResult;
  /** Where the time of one file went: pass 1, pass 2 (with refresh), bookkeeping. */
  timingsMs: { validate: number; index: number; bookkeeping: number };
}

const PROGRESS_EVERY = 5000;

/**
 * One certificate file, top to bottom: adapter -> canonical record -> spool
 * (pass 1, nothing indexed yet) -> _bulk (pass 2) -> bookkeeping. Throws
 * FileRejectedError when the file must not load at all.
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
  const size = await stat(job.file).then(
    (s) => s.size,
    (err: NodeJS.ErrnoException) => {
      throw new FileRejectedError('unreadable_file', `cannot read ${job.file}: ${err.code ?? err.message}`);
    },
  );
  if (size === 0) throw new FileRejectedError('empty_file', `${job.file} is empty`);

  const startedAt = Date.now();
  const ingestedAt = (deps.now?.() ?? new Date()).toISOString();
  const ctx = { county, taxYear: job.taxYear, vendor: channel.certificateVendor, parcelBaseUrl: deps.parcelBaseUrl, ingestedAt };

  // Pass 1: validate everything into the spool while hashing the bytes read.
  const hash = createHash('sha256');
  const hashed = new PassThrough({ highWaterMark: 1 << 20 });
  hashed.on('data', (chunk: Buffer) => hash.update(chunk));
  const source = createReadStream(job.file, { highWaterMark: 1 << 20 });
  source.on('error', (err) => hashed.destroy(err));
  source.pipe(hashed);

  const spoolName = job.jobId.replace(/[^a-zA-Z0-9_-]/g, '_');
  const spool = new SpoolWriter(spoolName);
  // Quarantined rows wait on disk too, and reach SQLite only once the file proves loadable.
  const held = new SpoolWriter(`${spoolName}-quarantine`);
  const seen = new SeenIds();
  let rowsRead = 0;
  try {
    for await (const row of adapter.rows(hashed, { county, taxYear: job.taxYear })) {
      rowsRead++;
      const { input, reasons } = adapter.toInput(row);
      const built = buildCertificate(input, reasons, ctx);
      if (!built.ok) {
        await held.write(row.line, '', { raw: row.raw, reasons: built.reasons });
      } else {
        const firstLine = seen.add(built.record.id, row.line);
        if (firstLine === undefined) await spool.write(row.line, built.record.id, built.record);
        else
          await held.write(row.line, '', {
            raw: row.raw,
            reasons: [`certificate_number: ${built.record.certificate_number} is listed again (first on line ${firstLine})`],
          });
      }
      if (rowsRead % PROGRESS_EVERY === 0) deps.onProgress?.({ phase: 'validating', rows: rowsRead });
    }
    await spool.close();
    if (rowsRead === 0) throw new FileRejectedError('empty_file', `${job.file} has no certificate rows`);
    const fileSha256 = hash.digest('hex');
    const validatedAt = Date.now();

    // Pass 2: the file is sound; send the spool.
    const alias = aliasName(deps.prefix, 'certificates');
    const writer = createBulkWriter(deps.opensearch, { index: alias });
    const send = async () => {
      let sent = 0;
      for await (const entry of readSpool(spool.path)) {
        await writer.add(entry.id, entry.json);
        if (++sent % PROGRESS_EVERY === 0) deps.onProgress?.({ phase: 'indexing', rows: sent });
      }
      return writer.flush();
    };
    const bulkMode = deps.bulkMode ?? new SharedBulkMode(deps.opensearch, { index: alias, dataset: 'certificates', replicas: deps.replicas });
    const totals = await bulkMode.run(send);
    // bulkMode.run refreshed the index: everything indexed is searchable from here on.

    if (totals.failures.length > 0) {
      // A document OpenSearch refused is quarantined with its reason, never dropped.
      const refused = new Map(totals.failures.map((f) => [f.id, f]));
      for await (const entry of readSpool(spool.path)) {
        const failure = refused.get(entry.id);
        if (failure)
          await held.write(entry.line, '', {
            raw: entry.json,
            reasons: [`index: ${failure.type ?? 'rejected'}: ${failure.reason ?? `status ${failure.status}`}`],
          });
      }
    }
    await held.close();
    const quarantined = held.count;
    let batch: QuarantinedRow[] = [];
    for await (const entry of readSpool(held.path)) {
      batch.push({ line: entry.line, ...(JSON.parse(entry.json) as { raw: string; reasons: string[] }) });
      if (batch.length === 500) {
        onQuarantine(batch, fileSha256);
        batch = [];
      }
    }
    if (batch.length > 0) onQuarantine(batch, fileSha256);

    const indexedAt = Date.now();
    const bookkeeping = await recordCertificateIngest(
      { opensearch: deps.opensearch, db: deps.db, registry: deps.registry, prefix: deps.prefix, replicas: deps.replicas },
      { county, taxYear: job.taxYear, vendor: job.vendor, channel, at: ingestedAt, today: ingestedAt.slice(0, 10) },
    );
    return {
      format: channel.format,
      fileSha256,
      rowsRead,
      indexed: totals.created,
      updated: totals.updated,
      quarantined,
      bookkeeping,
      timingsMs: { validate: validatedAt - startedAt, index: indexedAt - validatedAt, bookkeeping: Date.now() - indexedAt },
    };
  } finally {
    hashed.on('error', () => undefined);
    source.destroy();
    hashed.destroy();
    await spool.remove();
    await held.remove();
  }
}
