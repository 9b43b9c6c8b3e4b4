import { floridaToday } from '../domain/florida-today.ts';
import { type BulkDeps, currentThroughEvent } from './build-certificates.ts';
import { CERTIFICATE_PARQUET } from './certificate-columns.ts';
import { certificateDeltaPages, certificateEventDays } from './delta-events.ts';
import type { BulkFile } from './entry.ts';
import { writeFileSet } from './write-files.ts';

/** A delta line's Parquet columns: the row after the change is one STRUCT typed like the snapshot's columns. */
const DELTA_PARQUET = [
  ['op', 'VARCHAR'],
  ['id', 'VARCHAR'],
  ['event_id', 'VARCHAR'],
  ['event_type', 'VARCHAR'],
  ['changed_at', 'TIMESTAMPTZ'],
  ['row', `STRUCT(${CERTIFICATE_PARQUET.map(([name, type]) => `"${name}" ${type}`).join(', ')})`],
] as const;

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
      columns: DELTA_PARQUET.map(([name]) => name),
      parquet: DELTA_PARQUET,
      formats: ['parquet', 'ndjson'],
      throughEvent,
      now: deps.now?.() ?? new Date(),
    },
    certificateDeltaPages(deps.sql, day),
  );
}

/** The deltas of the days given, or of every day the kept events cover. */
export async function buildCertificateDeltas(deps: BulkDeps, days?: readonly string[]): Promise<BulkFile[]> {
  const wanted = days ?? (await certificateEventDays(deps.sql, (iso) => floridaToday(new Date(iso))));
  const all: BulkFile[] = [];
  for (const day of wanted) all.push(...(await buildCertificateDelta(deps, day)));
  return all;
}
