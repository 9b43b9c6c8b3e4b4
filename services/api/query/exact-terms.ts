/**
 * Reading a terms aggregation whose answer must be exact (analytics are sold as
 * exact, not estimated, on any number of shards: see docs/decisions.md, "Exact
 * analytics, never estimated"). A terms aggregation is exact
 * when every shard returned every value it holds: the engine then reports
 * doc_count_error_upper_bound 0 and sum_other_doc_count 0. A request sized to hold
 * every value always gets that; if it ever does not (a value the size did not
 * foresee), the answer would be silently wrong, so it is refused instead: a 500
 * that names the aggregation in the log, never a plausible figure.
 */

export interface TermsBucket {
  key: string | number;
  doc_count: number;
  [sub: string]: unknown;
}

interface TermsAnswer {
  buckets?: unknown;
  doc_count_error_upper_bound?: number;
  sum_other_doc_count?: number;
}

export class InexactAggregationError extends Error {
  override name = 'InexactAggregationError';
  constructor(
    readonly aggregation: string,
    problem: string,
  ) {
    super(`terms aggregation ${aggregation} is not exact: ${problem}`);
  }
}

/**
 * The buckets of a terms aggregation, or an InexactAggregationError. `expectedDocs`,
 * when given, is the parent's doc count: every document must fall in one bucket (a
 * document without the field would drop out of the figures unseen).
 */
export function exactBuckets(answer: unknown, name: string, expectedDocs?: number): TermsBucket[] {
  const terms = (answer ?? {}) as TermsAnswer;
  const errorBound = terms.doc_count_error_upper_bound ?? 0;
  const otherDocs = terms.sum_other_doc_count ?? 0;
  if (errorBound !== 0 || otherDocs !== 0)
    throw new InexactAggregationError(
      name,
      `doc_count_error_upper_bound ${errorBound}, sum_other_doc_count ${otherDocs}: its size does not cover every value`,
    );
  const buckets = Array.isArray(terms.buckets) ? (terms.buckets as TermsBucket[]) : [];
  if (expectedDocs !== undefined) {
    const counted = buckets.reduce((sum, b) => sum + b.doc_count, 0);
    if (counted !== expectedDocs)
      throw new InexactAggregationError(name, `its buckets hold ${counted} of ${expectedDocs} documents: some lack the field`);
  }
  return buckets;
}
