import { medianRate } from '../../../../domain/median-rate.ts';
import type { HolderGroupSort } from './params.ts';

/**
 * The group-level figures of every group in scope, folded from the scan's
 * (group, display name) buckets, and their order. Pure: the read pages the engine,
 * this only adds up and sorts, so the order of all groups is exact and a page is a
 * slice of it (no duplicates, nothing skipped, however deep).
 */

export interface PairBucket {
  key: { group: string; name?: string; rate?: number };
  doc_count: number;
  face?: { value: number };
  matches?: { doc_count: number };
}

export interface GroupSummary {
  group_id: string;
  /** From the (group, name) scan (name_asc and the exact fallback); '' when the order did not need it. */
  name: string;
  certificates: number;
  face_cents: number;
  matched: boolean;
  /** Set for median_rate_asc only. */
  median_rate?: number;
}

/** Dollars summed by the engine as a double, back to whole cents (exact far past any real total). */
export const toCents = (dollars: number) => Math.round(dollars * 100);

export function foldGroups(pairs: readonly PairBucket[], withQuery: boolean): GroupSummary[] {
  const byId = new Map<string, GroupSummary & { best: number }>();
  for (const b of pairs) {
    const name = b.key.name ?? '';
    let g = byId.get(b.key.group);
    if (!g) {
      g = { group_id: b.key.group, name, best: -1, certificates: 0, face_cents: 0, matched: !withQuery };
      byId.set(b.key.group, g);
    }
    g.certificates += b.doc_count;
    g.face_cents += toCents(b.face?.value ?? 0);
    if ((b.matches?.doc_count ?? 0) > 0) g.matched = true;
    // The display name: the most common spelling's candidate, the first in code-point order on a tie.
    if (b.doc_count > g.best || (b.doc_count === g.best && name < g.name)) {
      g.best = b.doc_count;
      g.name = name;
    }
  }
  return [...byId.values()].map(({ best: _best, ...g }) => g);
}

/** One group of the terms scan (build-scan.ts buildGroupTerms). */
export interface GroupBucket {
  key: string;
  doc_count: number;
  face?: { value: number };
}

/** The terms scan's groups; with query, only those in `matched` (groups with a member spelled so). */
export function foldGroupTerms(groups: readonly GroupBucket[], matched: ReadonlySet<string> | null): GroupSummary[] {
  return groups
    .filter((g) => matched === null || matched.has(g.key))
    .map((g) => ({ group_id: g.key, name: '', certificates: g.doc_count, face_cents: toCents(g.face?.value ?? 0), matched: true }));
}

/** Per group, its median rate from the rate scan's (group, rate) buckets. */
export function mediansOf(pairs: readonly PairBucket[]): Map<string, number> {
  const counts = new Map<string, [number, number][]>();
  for (const b of pairs) {
    const list = counts.get(b.key.group) ?? [];
    list.push([b.key.rate ?? 0, b.doc_count]);
    counts.set(b.key.group, list);
  }
  return new Map([...counts].map(([group, list]) => [group, medianRate(list)]));
}

const byId = (a: GroupSummary, b: GroupSummary) => (a.group_id < b.group_id ? -1 : a.group_id > b.group_id ? 1 : 0);
const byName = (a: GroupSummary, b: GroupSummary) => {
  const x = a.name.toUpperCase();
  const y = b.name.toUpperCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

const ORDERS: Record<HolderGroupSort, (a: GroupSummary, b: GroupSummary) => number> = {
  certificates_desc: (a, b) => b.certificates - a.certificates || byId(a, b),
  face_desc: (a, b) => b.face_cents - a.face_cents || byId(a, b),
  median_rate_asc: (a, b) => (a.median_rate ?? 0) - (b.median_rate ?? 0) || byId(a, b),
  name_asc: (a, b) => byName(a, b) || byId(a, b),
};

export function orderGroups(groups: readonly GroupSummary[], sort: HolderGroupSort): GroupSummary[] {
  return [...groups].sort(ORDERS[sort]);
}
