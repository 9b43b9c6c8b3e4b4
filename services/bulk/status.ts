import type { Sql } from '../control/db/sql.ts';
import { parseEventId } from '../control/feed/events.ts';
import { eventTypesOf } from '../domain/event-types.ts';
import { readEntries } from './entry.ts';
import type { BulkStorage } from './storage.ts';

/** One county and tax year's certificates snapshot, as an operator reads it. */
export interface SnapshotStatus {
  county: string;
  tax_year: number;
  rows: number;
  generated_at: string;
  age_seconds: number;
  through_event: string | null;
  /** The newest certificate event of the county, when it is after the snapshot's. */
  newer_event: string | null;
  /** True when the county has certificate events the snapshot does not hold yet. */
  lags: boolean;
}

const TYPES = eventTypesOf('certificate');

/**
 * The newest certificates snapshot of each county and tax year (its Parquet entry; the three
 * formats are written together), its age, and whether the county has changed since: a later
 * public certificate event of the county means the snapshot lags the index.
 */
export async function snapshotStatus(storage: BulkStorage, sql: Sql, now = new Date()): Promise<SnapshotStatus[]> {
  const entries = (await readEntries(storage)).filter(
    (f) => f.dataset === 'certificates' && f.kind === 'snapshot' && f.format === 'parquet',
  );
  const newest = await sql.all<{ county_slug: string; id: number }>(
    `SELECT county_slug, max(id) AS id FROM events WHERE client_id IS NULL AND county_slug IS NOT NULL AND type IN (${TYPES.map(() => '?').join(', ')}) GROUP BY county_slug`,
    [...TYPES],
  );
  const newestByCounty = new Map(newest.map((r) => [r.county_slug, Number(r.id)]));
  return entries
    .map((f) => {
      const through = f.through_event === null ? 0 : (parseEventId(f.through_event) ?? 0);
      const latest = newestByCounty.get(f.county ?? '') ?? 0;
      return {
        county: f.county ?? '',
        tax_year: f.tax_year ?? 0,
        rows: f.rows,
        generated_at: f.generated_at,
        age_seconds: Math.max(0, Math.round((now.getTime() - Date.parse(f.generated_at)) / 1000)),
        through_event: f.through_event,
        newer_event: latest > through ? `evt_${latest}` : null,
        lags: latest > through,
      };
    })
    .sort((a, b) => a.county.localeCompare(b.county) || b.tax_year - a.tax_year);
}
