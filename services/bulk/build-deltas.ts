import { floridaToday } from '../domain/florida-today.ts';
import { type BulkDeps, currentThroughEvent } from './build-certificates.ts';
import { CERTIFICATE_PARQUET } from './certificate-columns.ts';
import { deltaParquet } from './delta-columns.ts';
import { certificateDeltaPages, certificateEventDays } from './delta-events.ts';
import type { BulkFile } from './entry.ts';
import { SALE_PARQUET } from './sale-columns.ts';
import { saleDeltaLines } from './sale-delta-lines.ts';
import { writeFileSet } from './write-files.ts';

const CERTIFICATE_DELTA = deltaParquet(CERTIFICATE_PARQUET);
const SALE_DELTA = deltaParquet(SALE_PARQUET);

/**
 * The certificates delta of one Florida day (Parquet and gzipped NDJSON): every public
 * certificate event of the day in feed order. Applied in order after a snapshot (only lines with
 * an event id after the snapshot's through_event, or all of them: an upsert twice is the same
 * row), it gives the data as of the delta's through_event.
 */
export async function buildCertificateDelta(deps: BulkDeps, day: string): Promise<BulkFile[]> {
  const throughEvent = await currentThroughEvent(deps.sql);
  return writeFileSet(
    deps.storage,
    {
      key: { dataset: 'certificates', kind: 'delta', county: null, taxYear: null, day },
      columns: CERTIFICATE_DELTA.map(([name]) => name),
      parquet: CERTIFICATE_DELTA,
      formats: ['parquet', 'ndjson'],
      throughEvent,
      now: deps.now?.() ?? new Date(),
    },
    certificateDeltaPages(deps.sql, day),
  );
}

/**
 * The certificate-sales delta of one Florida day (Parquet and gzipped NDJSON): one line per sale
 * the day's certificate events touched, its row the sale as the API renders it at build time
 * (sale-delta-lines.ts says why that is the sale after the day's last change).
 */
export async function buildSaleDelta(deps: BulkDeps, day: string): Promise<BulkFile[]> {
  const throughEvent = await currentThroughEvent(deps.sql);
  const now = deps.now?.() ?? new Date();
  const lines = await saleDeltaLines({ ...deps, prefix: deps.config.INDEX_PREFIX }, day, floridaToday(now));
  return writeFileSet(
    deps.storage,
    {
      key: { dataset: 'certificate-sales', kind: 'delta', county: null, taxYear: null, day },
      columns: SALE_DELTA.map(([name]) => name),
      parquet: SALE_DELTA,
      formats: ['parquet', 'ndjson'],
      throughEvent,
      now,
    },
    onePage(lines),
  );
}

/** Both deltas of one Florida day: the certificates' and the sales' (the sales are derived from the same events). */
export async function buildDayDeltas(deps: BulkDeps, day: string): Promise<BulkFile[]> {
  return [...(await buildCertificateDelta(deps, day)), ...(await buildSaleDelta(deps, day))];
}

/** The deltas (certificates and sales) of the days given, or of every day the kept events cover. */
export async function buildCertificateDeltas(deps: BulkDeps, days?: readonly string[]): Promise<BulkFile[]> {
  const wanted = days ?? (await certificateEventDays(deps.sql, (iso) => floridaToday(new Date(iso))));
  const all: BulkFile[] = [];
  for (const day of wanted) all.push(...(await buildDayDeltas(deps, day)));
  return all;
}

async function* onePage<T>(rows: T[]): AsyncGenerator<T[]> {
  yield rows;
}
