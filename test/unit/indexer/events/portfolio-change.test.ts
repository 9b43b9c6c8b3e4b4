import { describe, expect, it } from 'vitest';
import { portfolioChanges } from '../../../../indexer/events/portfolio-change.ts';
import type { EventInput } from '../../../../services/control/feed/events.ts';
import { followedPositionId } from '../../../../services/domain/position-ids.ts';
import type { Holding, Holdings } from '../../../../services/control/portfolios/holdings.ts';

const redeemed: EventInput = {
  type: 'certificate.redeemed',
  countySlug: 'lee',
  data: { object: { id: 'cert_1', status: 'redeemed' }, previous: { status: 'sold' } },
};
const holding = (portfolioId: string, positionId: string | null, key: string, clientId = 'cli_a'): Holding => ({
  portfolioId,
  portfolioName: `name of ${portfolioId}`,
  clientId,
  positionId,
  key,
});
const holdings = (rows: Holding[]): Holdings => {
  const group = (list: Holding[]) => {
    const out = new Map<string, Holding[]>();
    for (const h of list) out.set(h.key, [...(out.get(h.key) ?? []), h]);
    return out;
  };
  return { byCertificate: group(rows.filter((h) => h.positionId !== null)), byGroup: group(rows.filter((h) => h.positionId === null)) };
};

describe('portfolio events of one certificate change', () => {
  it('one event per portfolio holding it or following its group before or after, by portfolio id, naming the written or followed position', () => {
    const events = portfolioChanges(
      { docId: 'cert_1', groupBefore: 'grp_old', groupAfter: 'grp_new', event: redeemed },
      holdings([
        holding('pf_c', 'pos_c', 'cert_1', 'cli_b'),
        holding('pf_a', null, 'grp_old'),
        holding('pf_b', null, 'grp_new'),
        holding('pf_x', null, 'grp_other'),
      ]),
    );
    expect(events.map((e) => [e.data.portfolio, e.data.position, e.owner])).toEqual([
      [{ id: 'pf_a', name: 'name of pf_a' }, { id: followedPositionId('pf_a', 'cert_1') }, { clientId: 'cli_a', portfolioId: 'pf_a' }],
      [{ id: 'pf_b', name: 'name of pf_b' }, { id: followedPositionId('pf_b', 'cert_1') }, { clientId: 'cli_a', portfolioId: 'pf_b' }],
      [{ id: 'pf_c', name: 'name of pf_c' }, { id: 'pos_c' }, { clientId: 'cli_b', portfolioId: 'pf_c', positionId: 'pos_c' }],
    ]);
    expect(events[0]).toMatchObject({
      type: 'portfolio.position_changed',
      countySlug: 'lee',
      data: { change: 'certificate.redeemed', object: redeemed.data.object, previous: redeemed.data.previous },
    });
  });

  it('a portfolio holding the certificate and following its group hears once, through its position; nobody else hears', () => {
    const both = holdings([holding('pf_a', 'pos_a', 'cert_1'), holding('pf_a', null, 'grp_old')]);
    expect(
      portfolioChanges({ docId: 'cert_1', groupBefore: 'grp_old', groupAfter: 'grp_old', event: redeemed }, both).map(
        (e) => e.data.position,
      ),
    ).toEqual([{ id: 'pos_a' }]);
    expect(portfolioChanges({ docId: 'cert_2', groupBefore: undefined, groupAfter: 'grp_none', event: redeemed }, both)).toEqual([]);
  });
});
