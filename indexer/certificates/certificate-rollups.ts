import type { Client } from '@opensearch-project/opensearch';
import { type RolledCertificate, RollupTally } from '../../services/engine/rollups/rollup-docs.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { aliasTargets } from '../indices/ensure.ts';
import type { BulkTotals } from '../load/bulk.ts';
import { applyDelta, markStale, RollupDriftError, rollupMarkers } from '../rollups/commit.ts';
import type { HeldRollups } from '../rollups/held.ts';
import type { LedgerMark, RollupLedger } from '../rollups/ledger.ts';
import { rebuildRollups, type RollupScope } from '../rollups/rebuild.ts';

/**
 * The rollups of one certificate file (services/engine/rollups/rollup-docs.ts), in three places
 * of the job:
 * 1. pass 1 adds every valid document as it is spooled (observe);
 * 2. between the passes, the change feed's one read of the index takes back each document a
 *    certificate replaces, and each document set aside by the conflict check (replaced, setAside);
 * 3. in the send lane, right after the certificates (withinSend): the difference is added to the
 *    rollups as written, or, in the worker, held with the other files' until just before the next
 *    refresh of the certificates index (rollups/held.ts). Nothing else writes rollups meanwhile,
 *    so that refresh shows the files and their rollups together.
 * When the difference cannot be trusted (a retry whose first attempt may have written part of the
 * file, a document the engine refused, another file of the county and year in between, rollups
 * that would go below zero), the county and tax year are marked stale, the certificates sent,
 * and its rollups made again from the certificates after a refresh in the lane (rollups/rebuild.ts);
 * a read meanwhile sees the marker and scans. A send that fails leaves the marker: the scope is
 * answered by scans until a later load of it rebuilds.
 */
export class CertificateRollups {
  private readonly delta = new RollupTally();
  /** False until the change feed's read of the index took back every replaced document. */
  private compared = false;
  private mark: LedgerMark | undefined;

  constructor(
    private readonly client: Client,
    private readonly prefix: string,
    private readonly scope: RollupScope,
    private readonly ledger: RollupLedger | undefined,
    /** The worker's rollups waiting for the next refresh; left out, each file's are written at once. */
    private readonly held?: HeldRollups,
  ) {}

  observe(doc: RolledCertificate): void {
    this.delta.add(doc);
  }

  /** The change feed's read begins: what this worker had committed of the county and year then. */
  comparing(): void {
    this.mark = this.ledger?.mark(this.scope.countySlug, this.scope.taxYear);
  }

  replaced(indexed: RolledCertificate): void {
    this.delta.add(indexed, -1);
  }

  setAside(incoming: RolledCertificate): void {
    this.delta.add(incoming, -1);
  }

  /** The read took back every replaced document (not a retry that only checked parcels). */
  compareComplete(): void {
    this.compared = true;
  }

  /** In the send lane: the certificates, then their rollups (see above). */
  async withinSend(send: () => Promise<BulkTotals>, refused: () => ReadonlySet<string>): Promise<BulkTotals> {
    try {
      return await this.commit(send, refused);
    } finally {
      // The file waits for its refresh and bookkeeping still: its sums are no longer needed.
      this.delta.entries.clear();
    }
  }

  private async commit(send: () => Promise<BulkTotals>, refused: () => ReadonlySet<string>): Promise<BulkTotals> {
    const [index] = await aliasTargets(this.client, aliasName(this.prefix, 'certificates'));
    const markers = index === undefined ? undefined : await rollupMarkers(this.client, index, this.scope);
    // An index from before rollups, or one filled some other way: nothing to keep.
    if (index === undefined || !markers?.built) return send();
    const ledger = this.ledger;
    const byDifference = this.compared && this.mark !== undefined && !(ledger?.changedSince(this.mark) ?? false) && !markers.stale;
    if (!byDifference) await this.staleUntilRebuild(index);
    // A difference to be held: marked until the held write, in case this worker ends before it (held.ts).
    else if (this.held) await markStale(this.client, index, this.scope);
    let totals: BulkTotals;
    try {
      totals = await send();
    } catch (err) {
      await this.staleUntilRebuild(index).catch(() => undefined);
      throw err;
    }
    if (byDifference && refused().size === 0) {
      try {
        if (this.held) await this.held.hold(index, this.delta, this.scope);
        else await applyDelta(this.client, index, this.delta);
        ledger?.committed(this.scope.countySlug, this.scope.taxYear);
        return totals;
      } catch (err) {
        await this.staleUntilRebuild(index).catch(() => undefined);
        if (!(err instanceof RollupDriftError)) throw err;
      }
    } else if (byDifference) await this.staleUntilRebuild(index);
    // The rebuild refreshes and reads the county's rollups as written: what is held goes first.
    await this.held?.write();
    await rebuildRollups(this.client, index, this.scope);
    ledger?.refreshed();
    ledger?.committed(this.scope.countySlug, this.scope.taxYear);
    return totals;
  }

  /** Marks the county and year stale until a rebuild: a held write of other files leaves the marker. */
  private staleUntilRebuild(index: string): Promise<void> {
    this.held?.keepStale(index, this.scope);
    return markStale(this.client, index, this.scope);
  }
}
