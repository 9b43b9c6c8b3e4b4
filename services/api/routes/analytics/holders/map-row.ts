import { medianRate, type GroupSummary, toCents } from './rank-groups.ts';
import type { HolderGroupRow } from './row.ts';

/** One group's bucket of the page pass (build-details.ts). */
export interface DetailBucket {
  key: string;
  doc_count: number;
  members: { buckets: { key: string; doc_count: number }[]; sum_other_doc_count: number };
  outstanding: { doc_count: number; face: { value: number } };
  redeemed: { doc_count: number };
  quarter: { doc_count: number };
  rates: { buckets: { key: number; doc_count: number }[] };
  counties: { buckets: { key: string; doc_count: number }[] };
  first: { value: number };
  last: { value: number };
  held: { value: number };
}

/** A fraction with 4 decimals, half up. */
const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part * 10000) / whole) / 10000);
const dollars = (cents: number) => cents / 100;

/** The one holder-group mapper: the scan's summary and the page pass's bucket -> the public row. */
export function mapGroupRow(summary: GroupSummary, d: DetailBucket): HolderGroupRow {
  return {
    group_id: summary.group_id,
    name: summary.name,
    members: d.members.buckets.map((m) => ({ name: m.key, certificates: m.doc_count })),
    certificates: d.doc_count,
    face_amount: dollars(summary.face_cents),
    outstanding_face_amount: dollars(toCents(d.outstanding.face.value)),
    counties: d.counties.buckets.map((c) => c.key).sort(),
    first_tax_year: d.first.value,
    last_tax_year: d.last.value,
    median_rate: medianRate(d.rates.buckets.map((r) => [r.key, r.doc_count] as const)),
    share_quarter: share(d.quarter.doc_count, d.doc_count),
    redeemed_share: share(d.redeemed.doc_count, d.doc_count),
    county_held: d.held.value === 1,
  };
}
