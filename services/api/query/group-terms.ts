/**
 * Holder groups one terms aggregation may count: below the engine's search.max_buckets (65,535)
 * with one metric each. The holder analytics rank every group within it, and the certificate
 * search's holder_group facet counts that many per shard, so its largest are the true largest.
 */
export const MAX_GROUPS = 30000;
