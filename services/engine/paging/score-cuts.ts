import type { KeyKind } from './cuts.ts';
import type { Located } from './number-cuts.ts';
import { type Body, PERCENTS, PLAN_AGG } from './plan.ts';
import { PageRuleError } from './rules.ts';
import type { SortOrder } from './sort.ts';

/**
 * Scores cannot be cut by a range query, but they can be counted exactly: a range
 * aggregation over a script reading `_score` counts, in one scoring pass, the
 * documents above every cut (scores are float32 and the script hands them over as
 * exact doubles, so a bucket bound at floatAbove(v) splits "> v" from "<= v" with no
 * rounding). A page then starts with search_after at a synthetic position
 * (v, the start of every later key), which returns exactly the documents scoring
 * <= v in order, and skips at most skipMax of them. A group of equal scores larger
 * than that is split on the later keys by the field plan, on a filter that matches
 * exactly the documents scoring v (tieQuery).
 */
export const SCORE_SCRIPT = { source: '_score', lang: 'painless' } as const;

/** The score distribution (proposes cuts only), asked for with the total. */
export function scoreStatsAggs(): Body {
  return {
    [PLAN_AGG.percentiles]: { percentiles: { script: SCORE_SCRIPT, percents: PERCENTS, tdigest: { compression: 200 } } },
    [PLAN_AGG.stats]: { stats: { script: SCORE_SCRIPT } },
  };
}

/**
 * Scores to cut after (a cut at v splits "> v" from "<= v"), ascending: at every
 * percentile and just below it (so a percentile that is a large group of equal
 * scores gets a bucket of its own), and 48 more around the wanted position.
 * `bracket` (a bucket's smallest and largest score) spreads all cuts inside it.
 */
export function scoreCuts(
  percentiles: readonly (number | null)[],
  descRank: number,
  count: number,
  bracket?: { min: number; max: number },
): number[] {
  const cuts = new Set<number>();
  const add = (v: number) => {
    const f = Math.fround(v);
    if (Number.isFinite(f)) cuts.add(f);
  };
  if (bracket) {
    add(bracket.min);
    for (let i = 1; i <= 48; i++) add(bracket.min + ((bracket.max - bracket.min) * i) / 49);
    return [...cuts].filter((v) => v >= bracket.min && v < bracket.max).sort((a, b) => a - b);
  }
  const values = percentiles.filter((v): v is number => v !== null && Number.isFinite(v)).sort((a, b) => a - b);
  for (const v of values) {
    add(v);
    add(floatBelow(Math.fround(v)));
  }
  if (values.length > 0 && count > 0) {
    const ascRank = count - 1 - descRank;
    const at = Math.min(values.length - 1, Math.max(0, Math.floor((ascRank / count) * (values.length + 1)) - 1));
    const lo = values[Math.max(0, at - 1)]!;
    const hi = values[Math.min(values.length - 1, at + 2)]!;
    for (let i = 1; i <= 48; i++) add(lo + ((hi - lo) * i) / 49);
  }
  return [...cuts].sort((a, b) => a - b);
}

/** Exact counts of the scores between consecutive cuts (bucket bounds at floatAbove of each), each with its smallest and largest score. */
export function scoreCutsAggs(cuts: readonly number[]): Body {
  const bounds = cuts.map(floatAbove);
  const ranges =
    bounds.length === 0
      ? [{}]
      : [{ to: bounds[0] }, ...bounds.slice(0, -1).map((from, i) => ({ from, to: bounds[i + 1] })), { from: bounds[bounds.length - 1] }];
  return {
    [PLAN_AGG.cuts]: {
      range: { script: SCORE_SCRIPT, ranges },
      aggs: { min: { min: { script: SCORE_SCRIPT } }, max: { max: { script: SCORE_SCRIPT } } },
    },
  };
}

/** The score cut a located bucket starts at, in descending order: the bucket holds scores <= it. */
export function scoreCutOf(located: Located): number | null {
  return located.cut === null ? null : floatBelow(located.cut);
}

/** A score query that matches exactly, without scoring, the documents whose score is v. */
export function tieQuery(query: Body, v: number): Body {
  return {
    bool: {
      filter: [{ function_score: { query, min_score: v } }],
      must_not: [{ function_score: { query, min_score: floatAbove(v) } }],
    },
  };
}

/**
 * A value of a later sort key that comes before every stored one, so that
 * search_after (v, start...) returns every document scoring v. Only the keys a
 * list sorts on after the score: numbers and dates (descending or ascending)
 * and strings ascending.
 */
export function startOf(kind: KeyKind, order: SortOrder): number | string {
  if (kind === 'string') {
    if (order === 'asc') return '';
    // Refused before any engine call by sortKinds (rules.ts); kept so the function is total.
    throw new PageRuleError('string-after-score-ascending', 'a descending string key after the score has no start value');
  }
  if (kind === 'decimal') return order === 'desc' ? Number.MAX_VALUE : -Number.MAX_VALUE;
  return order === 'desc' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}

/**
 * Scores are float32, so the float32 values next to a score are the tightest cuts
 * around it: "score > v" is "score >= floatAbove(v)" (a min_score or a range
 * bucket's from), with no rounding by the engine.
 */
export function floatAbove(v: number): number {
  return floatStep(v, 1);
}

export function floatBelow(v: number): number {
  return floatStep(v, -1);
}

function floatStep(v: number, direction: 1 | -1): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, v);
  const f = view.getFloat32(0);
  // v between two floats: the float on the asked side.
  if (direction === 1 ? f > v : f < v) return f;
  if (f === 0) return direction * 2 ** -149;
  const bits = view.getInt32(0);
  // Away from zero the bits of a positive float grow, those of a negative one shrink.
  view.setInt32(0, bits + (f > 0 ? direction : -direction));
  return view.getFloat32(0);
}
