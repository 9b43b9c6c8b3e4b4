import type { Writable } from 'node:stream';
import type { AdapterContext } from '../../../indexer/adapters/types.ts';
import type { CertificateRecord } from '../../../services/domain/records.ts';

/** The generator's side of a format: canonical records out as the platform would export them. */
export interface FormatWriter {
  readonly format: string;
  /** Writes the whole file (header, rows, trailer) without ending `out`; resolves with the number of rows written. */
  write(records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>, out: Writable, ctx: AdapterContext): Promise<number>;
}
