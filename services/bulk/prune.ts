import { readEntries } from './entry.ts';
import { manifestName } from './names.ts';
import type { BulkStorage } from './storage.ts';

/**
 * What the bulk folder keeps. A delta is kept while the change feed keeps its events
 * (EVENTS_RETENTION_DAYS): it cannot be rebuilt once they are gone, and a customer further behind
 * than the feed reloads a snapshot anyway. A snapshot is kept while its county and tax year hold
 * rows; one whose scope a full build no longer finds (its certificates removed, an index rebuilt
 * without it) is superseded by the absence and goes. Each file's manifest entry goes first, so the
 * listing never names a file that is gone.
 */
export interface Retention {
  /** Deltas of Florida days before this one (YYYY-MM-DD) are removed. */
  deltasFrom?: string;
  /**
   * The per-county snapshots a full build just wrote, as `<dataset>.<county>.<tax year>`: any other
   * per-county snapshot of those datasets is removed. Absent: no snapshot is removed.
   */
  snapshotScopes?: { datasets: readonly string[]; scopes: ReadonlySet<string> };
  /** Datasets of one file each (holders) that a full build found empty: their snapshot files are removed. */
  emptyDatasets?: readonly string[];
}

/** Removes what the retention no longer keeps; returns the removed file names. */
export async function pruneBulkFiles(storage: BulkStorage, retention: Retention): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await readEntries(storage)) {
    const oldDelta = entry.kind === 'delta' && retention.deltasFrom !== undefined && (entry.day ?? '') < retention.deltasFrom;
    const only = retention.snapshotScopes;
    const goneScope =
      entry.kind === 'snapshot' &&
      entry.county !== null &&
      only?.datasets.includes(entry.dataset) === true &&
      !only.scopes.has(snapshotScope(entry.dataset, entry.county, entry.tax_year ?? 0));
    const emptied = entry.kind === 'snapshot' && entry.county === null && retention.emptyDatasets?.includes(entry.dataset) === true;
    if (!oldDelta && !goneScope && !emptied) continue;
    await storage.remove(manifestName(entry.name));
    await storage.remove(entry.name);
    removed.push(entry.name);
  }
  return removed;
}

export function snapshotScope(dataset: string, county: string, taxYear: number): string {
  return `${dataset}.${county}.${taxYear}`;
}

/** The first Florida day a delta is kept for: `days` days before today. */
export function deltaCutoff(today: string, days: number): string {
  const d = new Date(`${today}T12:00:00.000Z`);
  return new Date(d.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}
