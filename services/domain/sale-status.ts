import type { SaleStatus } from './records.ts';

/**
 * A sale's status on a given day (YYYY-MM-DD, the county's calendar): before its
 * first day scheduled, after its last day completed, in progress between. The
 * indexer stamps it on the summary at ingest and the API derives it again on the
 * day a sale is read, so both use this one rule.
 */
export function saleStatus(firstDay: string, lastDay: string, today: string): SaleStatus {
  if (today < firstDay) return 'scheduled';
  if (today > lastDay) return 'completed';
  return 'in_progress';
}
