import { medianRate } from '../../../../domain/median-rate.ts';
import { type GroupSummary, toCents } from './rank-groups.ts';
import type { HolderGroupRow } from './row.ts';

interface Buckets<K> {
  buckets: { key: K; doc_count: number }[];
  sum_other_doc_count: number;
  doc_count_error_upper_bound?: number;
}

/** One group's bucket of the page pass (build-details.ts). */
export interface DetailBucket {
  key: string;
  doc_count: number;
  members: Buckets<string>;
  names: Buckets<string>;
  statuses: { buckets: { key: string; doc_count: number; face: { value: number } }[] };
  rates: Buckets<number>;
  counties: Buckets<string>;
  first: { value: number };
  last: { value: number };
  held: { value: number };
}

/** Statuses whose certificates are no longer outstanding. */
const CLOSED = new Set(['redeemed', 'cancelled']);

/** A fraction with 4 decimals, half up. */
const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part * 10000) / whole) / 10000);
const dollars = (cents: number) => cents / 100;

/** The one holder-group mapper: the scan's summary and the page pass's bucket -> the public row. */
export function mapGroupRow(summary: GroupSummary, d: DetailBucket): HolderGroupRow {
  const statusCount = (status: string) => d.statuses.buckets.find((b) => b.key === status)?.doc_count ?? 0;
  const outstandingCents = d.statuses.buckets.filter((b) => !CLOSED.has(b.key)).reduce((sum, b) => sum + toCents(b.face.value), 0);
  const faceCents = d.statuses.buckets.reduce((sum, b) => sum + toCents(b.face.value), 0);
  return {
    group_id: summary.group_id,
    name: d.names.buckets[0]?.key ?? summary.name,
    members: d.members.buckets.map((m) => ({ name: m.key, certificates: m.doc_count })),
    certificates: d.doc_count,
    face_amount: dollars(faceCents),
    outstanding_face_amount: dollars(outstandingCents),
    counties: d.counties.buckets.map((c) => c.key).sort(),
    first_tax_year: d.first.value,
    last_tax_year: d.last.value,
    median_rate: medianRate(d.rates.buckets.map((r) => [r.key, r.doc_count] as const)),
    share_quarter: share(d.rates.buckets.find((r) => r.key === 0.25)?.doc_count ?? 0, d.doc_count),
    redeemed_share: share(statusCount('redeemed'), d.doc_count),
    county_held: d.held.value === 1,
  };
}
