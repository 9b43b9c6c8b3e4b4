import type { Sql } from '../../services/control/db/sql.ts';
import type { Client } from '@opensearch-project/opensearch';
import {
  addStaged,
  completeStage,
  discardStage,
  openStage,
  publishStage,
  type StagedEvent,
  stagedData,
} from '../../services/control/feed/event-stage.ts';
import { announceSale } from '../../services/control/ingest/sale-statuses.ts';
import { CERTIFICATE_SOURCE, type CertificateDocument, mapCertificate } from '../../services/domain/certificate-row.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { saleId } from '../../services/domain/ids.ts';
import type { CertificateSaleRecord } from '../../services/domain/records.ts';
import type { RegistryCounty } from '../../services/domain/registry.ts';
import { mapSaleRow } from '../../services/domain/sale-row.ts';
import type { RowProblem } from '../adapters/types.ts';
import { parcelConflictOf } from './parcel-conflicts.ts';
import { countCountyYear, indexedPairs } from './read-indexed.ts';
import type { SpooledDoc } from '../load/two-pass-load.ts';
import { certificateChange, certificatesLoaded } from '../events/certificate-change.ts';
import { type PercolatedChange, percolateChanges } from './percolate-changes.ts';
import { countSpooled, matchesLoadedEvents, startLoadCount } from './saved-search-loads.ts';
import type { LoadCounter, LoadCounts } from '../../services/engine/local-percolation/load-counts.ts';
import { compiledSavedSearches } from '../../services/engine/local-percolation/stored-searches.ts';
import { recordSale } from '../events/record-sale.ts';
import type { CertificateRollups } from './certificate-rollups.ts';
import { ROLLUP_SOURCE_FIELDS, type RolledCertificate } from '../../services/engine/rollups/rollup-docs.ts';
import type { HeldChange } from '../events/portfolio-change.ts';
import { stagePortfolioChanges } from './portfolio-changes.ts';

/**
 * The change feed of one certificate file, in the three places of the job:
 *
 * 1. compare, between the passes, before pass 2 writes anything: one read of the index
 *    (read-indexed.ts) gives the conflict check its parcels and the feed its changes, which
 *    are staged in SQLite (services/control/feed/event-stage.ts). A first load of a county and tax
 *    year reads nothing per row and stages one certificates.loaded, and announces its sale.
 *    Each changed certificate, as it was and as it is, is percolated against the saved searches
 *    (percolate-changes.ts), whose private events are staged beside the public ones, and so are
 *    the portfolios' (portfolio-changes.ts): one read per batch of who holds them.
 * 2. publish, once pass 2 is searchable: the stage moves into events in one transaction, so
 *    ids are given in the order changes became visible, minus documents the engine refused. A
 *    first load adds each saved search's count of it then (saved-search-loads.ts), taken by the
 *    worker from its documents as pass 1 read them (observe), the engine saying what each text matches.
 * 3. recordSale, after the bookkeeping wrote the year's sale summary: its creation or status
 *    move (events/record-sale.ts).
 *
 * Exactly once across crashes: a retried job whose stage is complete publishes it and
 * computes nothing (comparing its file with an index it had half written would miss the
 * changes already written); a job that published has no stage left, and comparing again finds
 * the index equal to its file, so nothing. An unchanged file stages nothing; a reindex never
 * comes here.
 */

/** Changed certificates percolated in one request at most (their documents before and after in hand meanwhile). */
const PERCOLATE_BATCH = 5000;

export interface CertificateFeedDeps {
  opensearch: Client;
  /** The control plane: SQLite or PostgreSQL behind one async interface. */
  sql: Sql;
  prefix: string;
  parcelBaseUrl: string;
  /** The clock a sale's status is judged by (tests set it). */
  now?: () => Date;
}

export type FeedTimings = {
  percolate?: number;
  percolateEngine?: number;
  stageSaved?: number;
  countLoaded?: number;
  matchesLoaded?: number;
};

export interface CertificateFeed {
  /**
   * Pass 1, each valid document as it is spooled: a first load's saved-search counts are taken
   * from the documents in hand. A promise only on the first call (whether to count at all).
   */
  observe(doc: Record<string, unknown>): Promise<void> | undefined;
  /** Between the passes: the conflicting certificates (id -> problem); the changes of the rest are staged. */
  compare(docs: AsyncIterable<SpooledDoc>, fileSha256: string): Promise<Map<string, RowProblem>>;
  /** Once the file is searchable: the staged events into the feed; `refused` were never written. */
  publish(refused: ReadonlySet<string>): Promise<void>;
  /** After the bookkeeping: the sale summary's creation or status move, if any. */
  recordSale(sale: CertificateSaleRecord | null): Promise<void>;
  /**
   * After compare: how many already-indexed certificates the file changes in what the API shows;
   * null when this attempt did not compare (a retry publishing the stage an earlier one computed).
   */
  changed(): number | null;
  /**
   * Where the saved searches' time went, in ms, for the worker's per-file timings: `percolate`, the
   * matching of compare summed over chunks (each changed certificate, before and after), absent
   * when nothing was percolated, of which `percolateEngine` the engine's part; `stageSaved`, the
   * staging of the private events it gave; on first loads only, `countLoaded`, the worker's judging
   * of the searches over the documents (in pass 1, or between the passes from the spool), and
   * `matchesLoaded`, the engine's part (the texts' matches, the searches it counts) and the events,
   * in publish.
   */
  timingsMs(): FeedTimings;
}

function groupOf(doc: object | undefined): string | undefined {
  return (doc as { holder_group_id?: string } | undefined)?.holder_group_id;
}

export function certificateFeed(
  deps: CertificateFeedDeps,
  run: { jobId: string; county: RegistryCounty; taxYear: number },
  /** The file's rollups, told what the one read of the index finds replaced (certificate-rollups.ts). */
  rollups?: CertificateRollups,
): CertificateFeed {
  const { sql, parcelBaseUrl } = deps;
  const { jobId, county, taxYear } = run;
  const alias = aliasName(deps.prefix, 'certificates');
  const now = deps.now ?? (() => new Date());
  let changed: number | null = null;
  const timings: FeedTimings = {};
  /** A first load's counts the worker took of its documents, for publish. */
  let loadCounts: LoadCounts | undefined;
  /**
   * Pass 1's counter, decided on its first document: one when the county and year hold nothing
   * and searches exist, null otherwise; undefined until then.
   */
  let counter: LoadCounter | null | undefined;

  return {
    observe(doc) {
      if (counter !== undefined) {
        counter?.add(doc);
        return undefined;
      }
      return (async () => {
        const first = (await countCountyYear(deps.opensearch, alias, county.slug, taxYear)) === 0;
        counter = (first && (await startLoadCount(deps, county.slug, taxYear))) || null;
        counter?.add(doc);
      })();
    },

    async compare(docs, fileSha256) {
      const conflicts = new Map<string, RowProblem>();
      rollups?.comparing();
      const existing = await countCountyYear(deps.opensearch, alias, county.slug, taxYear);
      const stage = await openStage(sql, { jobId, fileSha256, countySlug: county.slug, taxYear });
      changed = stage === 'fresh' ? 0 : null;
      if (existing === 0) {
        // A first load: nothing indexed can conflict or change. Its count is known once searchable.
        if (stage === 'fresh')
          await sql.transaction(async (tx) => {
            await addStaged(tx, jobId, [{ ...certificatesLoaded(county, taxYear, 0), docId: null }]);
            await completeStage(tx, jobId);
            await announceSale(tx, { saleId: saleId(county.slug, taxYear), countySlug: county.slug, taxYear });
          });
        if (stage === 'fresh' && counter) {
          loadCounts = counter.finish();
          timings.countLoaded = Math.round(counter.spentMs);
        } else if (stage === 'fresh') {
          const started = Date.now();
          loadCounts = await countSpooled(deps, docs, county.slug, taxYear);
          timings.countLoaded = Date.now() - started;
        }
        counter = null;
        if (stage === 'fresh') rollups?.compareComplete();
        return conflicts;
      }
      counter = null;
      // Saved searches read every field a search may filter on, so their documents are whole.
      const percolating = stage === 'fresh' && (await compiledSavedSearches(deps.opensearch, deps.prefix)).length > 0;
      // A retry with its stage complete only needs the parcels, for the conflict check. The holder
      // group is not public, but the portfolios following a group hear of the certificates leaving it.
      const fields =
        stage === 'staged'
          ? ['parcel_id']
          : percolating
            ? ['*']
            : [...new Set([...CERTIFICATE_SOURCE, 'holder_group_id', ...ROLLUP_SOURCE_FIELDS])];
      // Changes wait to be matched in batches: the engine verifies each search it is asked at about
      // a millisecond whatever the batch's size, so one request per file is cheapest.
      const pending: PercolatedChange[] = [];
      const flush = async () => {
        if (pending.length === 0) return;
        const started = Date.now();
        const spent: { engineMs?: number } = {};
        let staging = 0;
        await percolateChanges(
          deps,
          pending.splice(0),
          async (events) => {
            const at = Date.now();
            await addStaged(sql, jobId, events);
            staging += Date.now() - at;
          },
          spent,
        );
        timings.percolate = (timings.percolate ?? 0) + Date.now() - started - staging;
        timings.percolateEngine = (timings.percolateEngine ?? 0) + (spent.engineMs ?? 0);
        timings.stageSaved = (timings.stageSaved ?? 0) + staging;
      };
      for await (const pairs of indexedPairs(deps.opensearch, alias, docs, fields)) {
        const events: StagedEvent[] = [];
        const held: HeldChange[] = [];
        for (const pair of pairs) {
          const conflict = parcelConflictOf(pair, taxYear);
          // A conflicting document stays out of the index: its rollups with it; a replaced one leaves them.
          if (conflict) rollups?.setAside(pair.incoming);
          else if (pair.indexed) rollups?.replaced(pair.indexed as RolledCertificate);
          if (conflict) conflicts.set(pair.id, conflict);
          else if (stage === 'fresh') {
            const before = pair.indexed && mapCertificate(pair.indexed as CertificateDocument, parcelBaseUrl);
            const event = certificateChange(before, mapCertificate(pair.incoming, parcelBaseUrl));
            if (event) events.push({ ...event, docId: pair.id });
            if (event) held.push({ docId: pair.id, groupBefore: groupOf(pair.indexed), groupAfter: groupOf(pair.incoming), event });
            if (event && percolating) pending.push({ docId: pair.id, before: pair.indexed, after: pair.incoming, event });
            if (event && before) changed = (changed ?? 0) + 1;
          }
        }
        events.push(...(await stagePortfolioChanges(sql, held)));
        await addStaged(sql, jobId, events);
        if (pending.length >= PERCOLATE_BATCH) await flush();
      }
      await flush();
      if (stage === 'fresh') await completeStage(sql, jobId);
      if (stage === 'fresh') rollups?.compareComplete();
      return conflicts;
    },

    async publish(refused) {
      const loaded = await stagedData(sql, jobId, 'certificates.loaded');
      if (!loaded) {
        await publishStage(sql, jobId, { refused });
        return;
      }
      // A first load's count is what search sees now; a load of which nothing became searchable tells nothing.
      const count = await countCountyYear(deps.opensearch, alias, county.slug, taxYear);
      if (count === 0) {
        await discardStage(sql, jobId);
        return;
      }
      const data = { object: { ...loaded.object, count }, previous: {} };
      const event = { type: 'certificates.loaded' as const, countySlug: county.slug, data };
      const started = Date.now();
      // Documents the engine refused are in the worker's counts: the engine counts everything then.
      const counted = refused.size === 0 ? loadCounts : undefined;
      const append = await matchesLoadedEvents(deps, alias, event, county.slug, taxYear, counted);
      timings.matchesLoaded = Date.now() - started;
      await publishStage(sql, jobId, { refused, rewrite: { 'certificates.loaded': data }, append });
    },

    async recordSale(sale) {
      if (sale) await recordSale(sql, (today) => mapSaleRow(sale, today), now, 'ingest');
    },

    changed: () => changed,
    timingsMs: () => ({ ...timings }),
  };
}
