import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { lienportCsvWriter } from '../../services/generator/writers/lienport-csv.ts';
import { allEventsAfter, type StoredEvent } from '../../services/control/feed/events.ts';
import type { Sql } from '../../services/control/db/sql.ts';
import type { CertificateRecord } from '../../services/domain/records.ts';
import { loadRegistry } from '../../services/domain/registry.ts';
import { sampleCertificate } from './sample-certificate.ts';

/**
 * Shared by the change-feed tests: Alachua 2023 portal files of sample certificates (as the
 * generator writes them), and the events recorded after a given one.
 */

/** n sold certificates of the tax year (sold on June 1 of the next year); the first `redeemed` of them redeemed on 2025-03-01. */
export function alachuaCertificates(n: number, redeemed = 0, taxYear = 2023): CertificateRecord[] {
  return Array.from({ length: n }, (_, i) =>
    i < redeemed
      ? sampleCertificate({ status: 'redeemed', redeemed: true, redeemed_date: '2025-03-01', tax_year: taxYear }, i)
      : sampleCertificate({ tax_year: taxYear }, i),
  );
}

/** Writes the records as a lienport CSV of Alachua and the tax year under dir; returns its path. */
export async function writeAlachuaFile(dir: string, name: string, records: CertificateRecord[], taxYear = 2023): Promise<string> {
  const file = join(dir, name);
  const out = createWriteStream(file);
  await lienportCsvWriter.write(records, out, { county: loadRegistry().county('alachua')!, taxYear });
  out.end();
  await finished(out);
  return file;
}

/** The ingest job of an Alachua lienport file. */
export const alachuaJob = (file: string, taxYear = 2023) => ({
  dataset: 'certificates' as const,
  file,
  vendor: 'lienport',
  county: 'alachua',
  taxYear,
});

/** Every event after `afterSeq`, oldest first, whichever client owns it. */
export async function eventsSince(sql: Sql, afterSeq = 0): Promise<StoredEvent[]> {
  return allEventsAfter(sql, afterSeq, 1_000_000);
}

/** The last id given so far (0 before any). */
export async function lastEventSeq(sql: Sql): Promise<number> {
  return (await eventsSince(sql)).at(-1)?.seq ?? 0;
}
