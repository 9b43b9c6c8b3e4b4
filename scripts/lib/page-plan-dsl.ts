import { beforeCut } from '../../services/engine/paging/cuts.ts';
import { type Cursor, groupFilters, selectedBody, selectedFromEndBody } from '../../services/engine/paging/cursor.ts';
import { cutsAggs, keyStatsAggs, keyValuesAggs, numberCuts } from '../../services/engine/paging/number-cuts.ts';
import {
  afterBody,
  countBody,
  countOnly,
  DEFAULT_PAGE_OPTIONS,
  deepPlan,
  type PageRequest,
  reversedBody,
  shallowBody,
  within,
} from '../../services/engine/paging/plan.ts';
import { scoreCuts, scoreCutsAggs, scoreStatsAggs, startOf, tieQuery } from '../../services/engine/paging/score-cuts.ts';
import { effectiveSort } from '../../services/engine/paging/sort.ts';

// biome-ignore lint/suspicious/noExplicitAny: fixture files are untyped JSON
type Params = any;

/**
 * One request a page plan sends, built from a case of fixtures/queries/page-plan/:
 * `build` names a pure builder of services/engine/paging/ (plan.ts and the strategies'
 * number-cuts.ts, score-cuts.ts, cursor.ts), the other fields are its inputs.
 * A new request shape adds a case here and a params file there.
 */
export function pagePlanDsl(p: Params): unknown {
  const req = p.request as PageRequest | undefined;
  switch (p.build) {
    case 'shallowBody':
      return shallowBody(req!, effectiveSort(req!.sort, req!.query));
    case 'countBody':
      return countBody(req!, keyStatsAggs(p.keyStats));
    case 'countBodyValues':
      return countBody(req!, { ...keyStatsAggs(p.field), ...keyValuesAggs(p.field) });
    case 'reversedBody': {
      const plan = deepPlan(req!, req!.sort, p.total, DEFAULT_PAGE_OPTIONS);
      if (plan.kind !== 'far-end') throw new Error(`plan is ${plan.kind}`);
      return reversedBody(req!, req!.sort, plan.from, plan.size);
    }
    case 'scoreCountBody':
      return countBody(req!, scoreStatsAggs());
    case 'scoreCutsAggs':
      return scoreCutsAggs(scoreCuts(p.percentiles, p.descRank, p.count, p.bracket));
    case 'scoreAfterBody': {
      // The page after a score cut: the later keys start before every stored value.
      const start = req!.sort.slice(1).map((k, i) => startOf(p.kinds[i], k.order));
      return afterBody(req!, req!.sort, [p.score, ...start], p.from, p.size);
    }
    case 'tieQuery':
      return tieQuery(p.query, p.score);
    case 'cutsAggs':
      return cutsAggs(p.field, numberCuts(p.kind, p.percentiles, p.ascRank, p.count));
    case 'selectedBody':
      return selectedBody(req!, req!.sort, p.cursor as Cursor, p.from, p.size, (p.end as Cursor | undefined) ?? null);
    case 'selectedFromEndBody':
      return selectedFromEndBody(req!, req!.sort, p.cursor as Cursor, p.end as Cursor, p.from, p.size);
    case 'countOnly':
      return countOnly(within(p.query, [...groupFilters(p.group), beforeCut(p.cut.field, p.cut.kind, p.cut.order, p.cut.value)]));
    default:
      throw new Error(`unknown builder ${p.build}`);
  }
}
