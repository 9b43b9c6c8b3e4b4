import { describe, expect, it } from 'vitest';
import { savedSearchChanges, savedSearchMatchesLoaded } from '../../../../indexer/events/saved-search-change.ts';
import type { EventInput } from '../../../../services/control/feed/events.ts';

const change: EventInput = {
  type: 'certificate.redeemed',
  countySlug: 'lee',
  data: { object: { id: 'cert_1', status: 'redeemed' }, previous: { status: 'sold' } },
};
const owners = new Map([
  ['ss_a', { clientId: 'cli_1', name: 'A' }],
  ['ss_b', { clientId: 'cli_1', name: 'B' }],
  ['ss_c', { clientId: 'cli_2', name: 'C' }],
]);

describe('a change as the saved searches hear it', () => {
  it('is added where it now matches, removed where it no longer does, updated where it matches on both sides', () => {
    const events = savedSearchChanges(change, new Set(['ss_b', 'ss_c']), new Set(['ss_a', 'ss_c']), owners);
    expect(events).toEqual([
      {
        type: 'saved_search.match_added',
        countySlug: 'lee',
        data: { saved_search: { id: 'ss_a', name: 'A' }, object: change.data.object, previous: change.data.previous },
        owner: { clientId: 'cli_1', savedSearchId: 'ss_a' },
      },
      {
        type: 'saved_search.match_removed',
        countySlug: 'lee',
        data: { saved_search: { id: 'ss_b', name: 'B' }, object: change.data.object, previous: change.data.previous },
        owner: { clientId: 'cli_1', savedSearchId: 'ss_b' },
      },
      {
        type: 'saved_search.match_updated',
        countySlug: 'lee',
        data: { saved_search: { id: 'ss_c', name: 'C' }, object: change.data.object, previous: change.data.previous },
        owner: { clientId: 'cli_2', savedSearchId: 'ss_c' },
      },
    ]);
  });

  it('says nothing to a search that matches on neither side, or that has no owner any more (deleted)', () => {
    expect(savedSearchChanges(change, new Set(), new Set(), owners)).toEqual([]);
    expect(savedSearchChanges(change, new Set(['ss_gone']), new Set(['ss_gone']), owners)).toEqual([]);
  });

  it("a first load is one matches_loaded with the search's own count, owned by its client", () => {
    const loaded: EventInput = {
      type: 'certificates.loaded',
      countySlug: 'lee',
      data: { object: { county_slug: 'lee', county_name: 'Lee', tax_year: 2024, count: 5000 }, previous: {} },
    };
    expect(savedSearchMatchesLoaded(loaded, { id: 'ss_a', count: 12 }, owners.get('ss_a')!)).toEqual({
      type: 'saved_search.matches_loaded',
      countySlug: 'lee',
      data: {
        saved_search: { id: 'ss_a', name: 'A' },
        object: { county_slug: 'lee', county_name: 'Lee', tax_year: 2024, count: 12 },
        previous: {},
      },
      owner: { clientId: 'cli_1', savedSearchId: 'ss_a' },
    });
  });
});
