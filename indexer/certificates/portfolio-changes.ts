import type { Sql } from '../../services/control/db/sql.ts';
import type { StagedEvent } from '../../services/control/feed/event-stage.ts';
import { holdingsOf } from '../../services/control/portfolios/holdings.ts';
import { type HeldChange, portfolioChanges } from '../events/portfolio-change.ts';

/**
 * The portfolios' events of one batch of changed certificates, staged beside the public ones: one
 * control-plane read for the batch (the positions holding the certificates, the portfolios following
 * their holder groups before or after), then each change's private events (events/portfolio-change.ts).
 * A portfolio or position deleted before publish is dropped there (event-stage.ts).
 */
export async function stagePortfolioChanges(sql: Sql, changes: readonly HeldChange[]): Promise<StagedEvent[]> {
  if (changes.length === 0) return [];
  const groups = new Set<string>();
  for (const c of changes) for (const g of [c.groupBefore, c.groupAfter]) if (g !== undefined) groups.add(g);
  const holdings = await holdingsOf(
    sql,
    changes.map((c) => c.docId),
    [...groups],
  );
  if (holdings.byCertificate.size === 0 && holdings.byGroup.size === 0) return [];
  return changes.flatMap((c) => portfolioChanges(c, holdings).map((e) => ({ ...e, docId: c.docId })));
}
