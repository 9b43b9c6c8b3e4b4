import type { Client } from '@opensearch-project/opensearch';
import { count } from '../../../engine/search.ts';
import { InvalidParamsError } from '../../errors.ts';
import type { Clause } from '../../query/filters.ts';

/**
 * What one credit buys on an analytic route: its engine work grows with the certificates
 * in its scope (every one is read, whatever the page), so a scope larger than the route's
 * cap is refused before any aggregation runs, with a 400 naming the parameters that narrow
 * it. Counting the scope is one filter-only count, a small fraction of the aggregation it
 * guards. The caps (config.ts) are sized so that the costliest call a route accepts stays
 * under half a second of engine CPU (docs/investor-answers.md#what-one-credit-buys).
 */
export async function assertScopeWithin(
  client: Client,
  index: string,
  scope: Clause,
  cap: number,
  narrowBy: readonly string[],
): Promise<void> {
  const certificates = await count(client, index, scope);
  if (certificates <= cap) return;
  const ways = narrowBy.length > 1 ? `${narrowBy.slice(0, -1).join(', ')} or ${narrowBy.at(-1)}` : narrowBy.join('');
  const message = `the scope holds ${certificates.toLocaleString('en-US')} certificates; one call reads at most ${cap.toLocaleString('en-US')}: narrow it with ${ways}`;
  throw new InvalidParamsError(narrowBy.map((parameter) => ({ parameter, message })));
}
