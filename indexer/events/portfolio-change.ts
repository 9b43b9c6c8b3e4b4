import type { EventInput, EventType } from '../../services/control/feed/events.ts';
import type { Holding, Holdings } from '../../services/control/portfolios/holdings.ts';
// The reading route's own rule, so an alert names the position GET /portfolios/{id}/positions lists.
import { followedPositionId } from '../../services/domain/position-ids.ts';

/**
 * What one certificate's change means to the portfolios, pure: beside the public event of the
 * change (certificate-change.ts), each portfolio holding the certificate (a position), or following
 * the holder group it had before or after the change, gets one private portfolio.position_changed.
 * A portfolio that both holds the certificate and follows its group hears of it once, through its
 * written position; through the group only, the position is the followed one, whose id the reading
 * route derives (services/domain/position-ids.ts). A change of nothing public has no public event and comes
 * nowhere near here.
 */

export interface HeldChange {
  docId: string;
  /** The certificate's holder group before the change (undefined: new, or not known). */
  groupBefore: string | undefined;
  groupAfter: string | undefined;
  /** The public event of the change. */
  event: EventInput;
}

/** The private events of one change, in the order of the portfolios' ids. */
export function portfolioChanges(change: HeldChange, holdings: Holdings): EventInput[] {
  const chosen = new Map<string, Holding>();
  for (const h of holdings.byCertificate.get(change.docId) ?? []) if (!chosen.has(h.portfolioId)) chosen.set(h.portfolioId, h);
  for (const group of new Set([change.groupBefore, change.groupAfter]))
    if (group !== undefined)
      for (const h of holdings.byGroup.get(group) ?? []) if (!chosen.has(h.portfolioId)) chosen.set(h.portfolioId, h);
  const { data } = change.event;
  return [...chosen.values()]
    .sort((a, b) => (a.portfolioId < b.portfolioId ? -1 : a.portfolioId > b.portfolioId ? 1 : 0))
    .map((h) => ({
      type: 'portfolio.position_changed' as EventType,
      countySlug: change.event.countySlug,
      data: {
        portfolio: { id: h.portfolioId, name: h.portfolioName },
        position: { id: h.positionId ?? followedPositionId(h.portfolioId, change.docId) },
        change: change.event.type,
        object: data.object,
        previous: data.previous,
      },
      // Only a written position is a row whose removal drops the event at publish.
      owner: {
        clientId: h.clientId,
        portfolioId: h.portfolioId,
        ...(h.positionId === null ? {} : { positionId: h.positionId }),
      },
    }));
}
