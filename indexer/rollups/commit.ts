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
} from '../../services/engine/rollups/rollup-docs.ts';
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

export async function applyDelta(client: Client, index: string, delta: RollupTally): Promise<number> {
  const changes = [...delta.entries.entries()].filter(([, e]) => !isEmpty(e));
  const ops: object[] = [];
  for (let i = 0; i < changes.length; i += MGET_CHUNK) {
    const chunk = changes.slice(i, i + MGET_CHUNK);
    const res = await client.mget({ index, realtime: true, body: { ids: chunk.map(([id]) => id) } } as never);
    const docs = (res.body as { docs: { _id: string; found?: boolean; _source?: { rollup: Record<string, unknown> } }[] }).docs;
    for (const [i, [id, change]] of chunk.entries()) {
      const found = docs[i];
      const now = found?.found && found._source ? entryOf(found._source) : undefined;
      const next = sum(now, change);
      const leftover = next.count === 0 && (next.faceCents !== 0 || next.days?.some((d) => d !== 0));
      if (next.count < 0 || leftover || next.days?.some((d) => d < 0)) throw new RollupDriftError(`rollup ${id} would count ${next.count}`);
      ops.push(next.count === 0 ? { delete: { _index: index, _id: id } } : [{ index: { _index: index, _id: id } }, rollupDocument(next)]);
    }
  }
  await write(client, index, ops.flat());
  return changes.length;
}

function sum(a: RollupEntry | undefined, b: RollupEntry): RollupEntry {
  const out: RollupEntry = { key: b.key, count: (a?.count ?? 0) + b.count, faceCents: (a?.faceCents ?? 0) + b.faceCents };
  if (a?.days || b.days) out.days = Array.from({ length: 31 }, (_, d) => (a?.days?.[d] ?? 0) + (b.days?.[d] ?? 0));
  return out;
}

async function write(client: Client, index: string, body: object[]): Promise<void> {
  if (body.length === 0) return;
  const res = await client.bulk({ body: body as never, filter_path: 'errors,items.*.error,items.*.status' });
  const items = (res.body as { errors?: boolean; items?: Record<string, { status?: number; error?: unknown }>[] }).items ?? [];
  // A delete of a document already gone is not a failure.
  const failed = items.filter((item) => Object.values(item).some((r) => r.error !== undefined && r.status !== 404));
  if (failed.length > 0)
    throw new BulkRequestError('unavailable', `writing rollups to ${index} failed: ${JSON.stringify(failed[0]).slice(0, 300)}`);
}

/** Writes a marker document (count 0): `stale` for a county and tax year, `built` for the index. */
export async function writeMarker(client: Client, index: string, key: RollupKey): Promise<void> {
  await write(client, index, [{ index: { _index: index, _id: rollupId(key) } }, rollupDocument({ key, count: 0, faceCents: 0 })]);
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
