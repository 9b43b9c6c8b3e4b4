import type { Client } from '@opensearch-project/opensearch';
import { RollupTally } from '../../services/engine/rollups/rollup-docs.ts';
import { applyDelta, markStale, RollupDriftError } from './commit.ts';
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
  private readonly byIndex = new Map<string, { tally: RollupTally; scopes: Map<string, RollupScope> }>();

  constructor(
    private readonly client: Client,
    private readonly ledger: RollupLedger,
    /** Rollup keys held at most before they are written without waiting for a refresh: bounds the worker's memory. */
    private readonly maxEntries = HELD_MAX_ENTRIES,
  ) {}

  /** Takes over a file's difference (its certificates are sent); written no later than the next refresh. */
  async hold(index: string, delta: RollupTally, scope: RollupScope): Promise<void> {
    let held = this.byIndex.get(index);
    if (!held) {
      held = { tally: new RollupTally(), scopes: new Map() };
      this.byIndex.set(index, held);
    }
    held.tally.absorb(delta);
    held.scopes.set(`${scope.countySlug}|${scope.taxYear}`, scope);
    if (held.tally.entries.size > this.maxEntries) await this.write();
  }

  /**
   * Writes everything held. A difference that would take a count below zero marks every county
   * and tax year it holds stale and rebuilds them from their certificates (a refresh: the caller
   * is in the send lane). Any other failure marks them stale and throws, so the refresh that
   * called this fails and its files are retried; readers scan those scopes meanwhile.
   */
  async write(): Promise<void> {
    for (const [index, held] of [...this.byIndex]) {
      this.byIndex.delete(index);
      try {
        await applyDelta(this.client, index, held.tally);
      } catch (err) {
        for (const scope of held.scopes.values()) await markStale(this.client, index, scope).catch(() => undefined);
        if (!(err instanceof RollupDriftError)) throw err;
        for (const scope of held.scopes.values()) await rebuildRollups(this.client, index, scope);
        this.ledger.refreshed();
      }
    }
  }
}

/** Rollup keys held before they are written anyway; a refresh comes sooner in most loads. */
export const HELD_MAX_ENTRIES = 100_000;
