import type { Client } from '@opensearch-project/opensearch';
import { markerKey, RollupTally, rollupId } from '../../services/engine/rollups/rollup-docs.ts';
import { applyDelta, markStale, RollupDriftError, writeRollupLines } from './commit.ts';
import type { RollupLedger } from './ledger.ts';
import { type RollupScope, rebuildRollups } from './rebuild.ts';

/**
 * A worker's rollup differences sent with their certificates but not yet written, added
 * together until the next refresh of the certificates index. Rollups only have to be written
 * before the refresh that shows their certificates (both live in one index that nothing else
 * refreshes), and most of a file's rollup documents are holder groups that the files before it
 * wrote too: at 300,000 rows, 86,000 rollup writes a file at a time came to 41,000 documents
 * written once per refresh, and the engine no longer rewrites (and merges away) the same group
 * document for every file. Everything here runs in the send lane (load/lane.ts), one task at a
 * time, so nothing else adds or writes meanwhile.
 */
export class HeldRollups {
  private readonly byIndex = new Map<string, Held>();

  constructor(
    private readonly client: Client,
    private readonly ledger: RollupLedger,
    /** Rollup keys held at most before they are written without waiting for a refresh: bounds the worker's memory. */
    private readonly maxEntries = HELD_MAX_ENTRIES,
  ) {}

  /**
   * Takes over a file's difference; written no later than the next refresh. The caller marked
   * the county and tax year stale before sending its certificates: a worker that dies before
   * the write leaves the marker, so a refresh after it (the next worker's start) shows readers a
   * scope to scan, not certificates without their rollups. The write removes the marker.
   */
  async hold(index: string, delta: RollupTally, scope: RollupScope): Promise<void> {
    const held = this.heldIn(index);
    held.tally.absorb(delta);
    held.scopes.set(scopeKey(scope), scope);
    if (held.tally.entries.size > this.maxEntries) await this.write();
  }

  /** The county and year was marked stale for a reason of its own (a rebuild to come, a failed send): the write leaves that marker. */
  keepStale(index: string, scope: RollupScope): void {
    this.heldIn(index).keep.add(scopeKey(scope));
  }

  /**
   * Writes everything held, and removes the stale markers the holds wrote. A difference that
   * would take a count below zero marks every county and tax year it holds stale and rebuilds
   * them from their certificates (a refresh: the caller is in the send lane). Any other failure
   * leaves them stale and throws, so the refresh that called this fails and its files are
   * retried; readers scan those scopes meanwhile.
   */
  async write(): Promise<void> {
    for (const [index, held] of [...this.byIndex]) {
      this.byIndex.delete(index);
      const scopes = [...held.scopes.values()];
      try {
        await applyDelta(this.client, index, held.tally);
      } catch (err) {
        for (const scope of scopes) await markStale(this.client, index, scope).catch(() => undefined);
        if (!(err instanceof RollupDriftError)) throw err;
        for (const scope of scopes) await rebuildRollups(this.client, index, scope);
        this.ledger.refreshed();
        continue;
      }
      const written = scopes.filter((s) => !held.keep.has(scopeKey(s)));
      await writeRollupLines(
        this.client,
        index,
        written.map((s) => ({ delete: { _index: index, _id: rollupId(markerKey('stale', s.countySlug, s.taxYear)) } })),
      );
    }
  }

  private heldIn(index: string): Held {
    let held = this.byIndex.get(index);
    if (!held) {
      held = { tally: new RollupTally(), scopes: new Map(), keep: new Set() };
      this.byIndex.set(index, held);
    }
    return held;
  }
}

interface Held {
  tally: RollupTally;
  scopes: Map<string, RollupScope>;
  /** Scopes whose stale marker stays after the write. */
  keep: Set<string>;
}

const scopeKey = (s: RollupScope) => `${s.countySlug}|${s.taxYear}`;

/** Rollup keys held before they are written anyway; a refresh comes sooner in most loads. */
export const HELD_MAX_ENTRIES = 100_000;
