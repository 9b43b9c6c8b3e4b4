import type { Client } from '@opensearch-project/opensearch';
import {
  entryOf,
  isEmpty,
  markerKey,
  type RollupEntry,
  type RollupKey,
  type RollupTally,
  rollupDocument,
  rollupId,
  wholeIndexGroups,
} from '../../services/engine/rollups/rollup-docs.ts';
import { addHist, histNegative, mergeHist } from '../../services/engine/rollups/group-hist.ts';
import { BulkRequestError } from '../errors.ts';
import type { RollupScope } from './rebuild.ts';

/**
 * A load's rollups kept by difference: the documents it brings added, the ones it replaces taken
 * back (certificates/rollup-delta.ts), applied to the rollup documents as they are written now.
 * Runs in the send lane right after the file's certificates, so nothing else writes rollups in
 * between and the next refresh shows both (load/lane.ts). A real-time multi-get reads the rollups
 * as written, refreshed or not.
 */

/** The rollups' sums no longer match their certificates (a count below zero): rebuild them instead. */
export class RollupDriftError extends Error {
  override name = 'RollupDriftError';
}

const MGET_CHUNK = 2000;
/** Rounds of a delta against documents another writer changed between our read and our write. */
const CONFLICT_ROUNDS = 5;

interface Found {
  _id: string;
  found?: boolean;
  _seq_no?: number;
  _primary_term?: number;
  _source?: { rollup: Record<string, unknown> };
}

/**
 * Adds the delta to the rollup documents. Each write is conditional on the version read (or on
 * the document still being absent), so a group's whole-index rollup, which every county's loads
 * add to, never loses an addition to another worker writing it at the same moment: the entries
 * whose write found a newer version are read and added again.
 */
export async function applyDelta(client: Client, index: string, delta: RollupTally): Promise<number> {
  let pending = [...delta.entries, ...wholeIndexGroups(delta).entries].filter(([, e]) => !isEmpty(e));
  const changed = pending.length;
  for (let round = 0; pending.length > 0; round++) {
    if (round === CONFLICT_ROUNDS) throw new BulkRequestError('unavailable', `rollups of ${index} kept changing under this load`);
    const ops: { id: string; change: RollupEntry; lines: object[] }[] = [];
    for (let i = 0; i < pending.length; i += MGET_CHUNK) {
      const chunk = pending.slice(i, i + MGET_CHUNK);
      const res = await client.mget({ index, realtime: true, body: { ids: chunk.map(([id]) => id) } } as never);
      const docs = (res.body as { docs: Found[] }).docs;
      for (const [i, [id, change]] of chunk.entries()) ops.push({ id, change, lines: nextWrite(index, id, docs[i], change) });
    }
    const conflicted = await writeRollupLines(
      client,
      index,
      ops.flatMap((o) => o.lines),
    );
    pending = ops.filter((o) => conflicted.has(o.id)).map((o) => [o.id, o.change] as [string, RollupEntry]);
  }
  return changed;
}

/** The bulk lines that add `change` to the document as read, on the condition that it is still as read. */
function nextWrite(index: string, id: string, found: Found | undefined, change: RollupEntry): object[] {
  const now = found?.found && found._source ? entryOf(found._source) : undefined;
  const next = sum(now, change);
  const leftover = next.count === 0 && !isEmpty({ ...next, count: 0 });
  if (next.count < 0 || leftover || next.days?.some((d) => d < 0) || (next.hist && histNegative(next.hist)))
    throw new RollupDriftError(`rollup ${id} would count ${next.count}`);
  const version = now ? { if_seq_no: found!._seq_no, if_primary_term: found!._primary_term } : {};
  if (next.count === 0) return [{ delete: { _index: index, _id: id, ...version } }];
  return [now ? { index: { _index: index, _id: id, ...version } } : { create: { _index: index, _id: id } }, rollupDocument(next)];
}

/** a + b. `a`, the document as read, is this write's own and is added to in place; `b` may be sent again. */
function sum(a: RollupEntry | undefined, b: RollupEntry): RollupEntry {
  const out: RollupEntry = { key: b.key, count: (a?.count ?? 0) + b.count, faceCents: (a?.faceCents ?? 0) + b.faceCents };
  if (a?.days || b.days) out.days = Array.from({ length: 31 }, (_, d) => (a?.days?.[d] ?? 0) + (b.days?.[d] ?? 0));
  if (a?.hist && b.hist) addHist(a.hist, b.hist);
  if (a?.hist || b.hist) out.hist = a?.hist ?? mergeHist(b.hist, undefined);
  return out;
}

/** Sends the lines; the ids whose condition failed (written by another since the read) come back for another round. */
export async function writeRollupLines(client: Client, index: string, body: object[]): Promise<Set<string>> {
  const conflicted = new Set<string>();
  if (body.length === 0) return conflicted;
  const res = await client.bulk({ body: body as never, filter_path: 'errors,items.*.error,items.*.status,items.*._id' });
  const items =
    (res.body as { errors?: boolean; items?: Record<string, { _id?: string; status?: number; error?: unknown }>[] }).items ?? [];
  for (const item of items) {
    for (const r of Object.values(item)) {
      // A delete of a document already gone is not a failure; a version conflict is another round.
      if (r.error === undefined || r.status === 404) continue;
      if (r.status === 409 && r._id !== undefined) conflicted.add(r._id);
      else throw new BulkRequestError('unavailable', `writing rollups to ${index} failed: ${JSON.stringify(item).slice(0, 300)}`);
    }
  }
  return conflicted;
}

/** Writes a marker document (count 0): `stale` for a county and tax year, `built` for the index. */
export async function writeMarker(client: Client, index: string, key: RollupKey): Promise<void> {
  await writeRollupLines(client, index, [
    { index: { _index: index, _id: rollupId(key) } },
    rollupDocument({ key, count: 0, faceCents: 0 }),
  ]);
}

/** Marks a county and tax year's rollups as not to be trusted: reads of a scope holding it scan. */
export function markStale(client: Client, index: string, scope: RollupScope): Promise<void> {
  return writeMarker(client, index, markerKey('stale', scope.countySlug, scope.taxYear));
}

/**
 * In one real-time multi-get (written, refreshed or not): whether the index keeps rollups (its
 * built marker) and whether the county and tax year is marked stale, where a difference added
 * would stay wrong.
 */
export async function rollupMarkers(client: Client, index: string, scope: RollupScope): Promise<{ built: boolean; stale: boolean }> {
  const ids = [rollupId(markerKey('built')), rollupId(markerKey('stale', scope.countySlug, scope.taxYear))];
  const res = await client.mget({ index, realtime: true, _source: false, body: { ids } } as never);
  const [built, stale] = (res.body as { docs: { found?: boolean }[] }).docs.map((d) => d.found === true);
  return { built: built === true, stale: stale === true };
}
