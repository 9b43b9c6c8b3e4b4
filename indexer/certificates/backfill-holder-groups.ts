import type { Client } from '@opensearch-project/opensearch';
import { type HolderAliases, type HolderGroupFacts, holderGroup } from '../../services/domain/holder-groups.ts';

const BATCH = 2000;

interface Hit {
  _id: string;
  _source: HolderGroupFacts;
  sort: unknown[];
}

/**
 * Certificates indexed before holder groups existed (mapping v4 and older) have
 * none, and _reindex copies documents as they are: this sets the group of every
 * certificate of `index` that lacks one, with the same rule ingest uses. Reindex
 * runs it on the new index before the alias moves, so searches never see a
 * certificate outside every group. Idempotent: a second run finds nothing to do.
 */
export async function backfillHolderGroups(client: Client, index: string, aliases: HolderAliases): Promise<number> {
  await client.indices.refresh({ index });
  let after: unknown[] | undefined;
  let updated = 0;
  for (;;) {
    const res = await client.search({
      index,
      body: {
        size: BATCH,
        query: { bool: { must_not: [{ exists: { field: 'holder_group_id' } }] } },
        _source: ['holder_name', 'county_slug', 'county_name', 'struck_to_county'],
        sort: [{ id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      } as never,
    });
    const hits = res.body.hits.hits as unknown as Hit[];
    if (hits.length === 0) break;
    const body = hits.flatMap((h) => [{ update: { _index: index, _id: h._id } }, { doc: holderGroup(h._source, aliases) }]);
    const bulk = await client.bulk({ body: body as never });
    if (bulk.body.errors) throw new Error(`holder-group backfill of ${index}: some updates failed`);
    updated += hits.length;
    after = hits.at(-1)!.sort;
  }
  await client.indices.refresh({ index });
  return updated;
}
