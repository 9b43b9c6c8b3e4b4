import { type HolderAliases, type HolderGroup, type HolderGroupFacts, holderGroup } from '../services/domain/holder-groups.ts';
import { createHolderIds, type HolderIds } from '../services/domain/ids.ts';

/**
 * The holder memories of the ingest hot path, kept by a worker across its jobs (or by one job):
 * the holder ids and groups a certificate file's builder asks for, a few thousand holders again
 * and again. Below the datasets, since the job's deps (dataset-file.ts) carry them.
 */

export type HolderGroups = (facts: HolderGroupFacts) => HolderGroup;

const GROUP_CACHE_MAX = 50_000;

/**
 * holderGroup with a memory, for the ingest hot path: a file names a few thousand holders
 * for hundreds of thousands of certificates, and the rule (word splits, regular expressions,
 * a SHA-256 per group id) cost a tenth of the worker's CPU per row when run for each one.
 * The group depends on the county and the spelling only (or only the county, for a struck
 * certificate), which is the key. Dropped whole past its bound, like createHolderIds; one per
 * worker (createHolderMemory) or per job, never module state.
 */
export function createHolderGroups(aliases: HolderAliases, max = GROUP_CACHE_MAX): HolderGroups {
  const groups = new Map<string, HolderGroup>();
  return (c) => {
    const key = c.struck_to_county ? `\u0001${c.county_slug}` : `${c.county_slug}\u0000${c.holder_name}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = holderGroup(c, aliases);
      if (groups.size >= max) groups.clear();
      // A copy of its own: the name may be a view into a whole chunk of the file (see createHolderIds).
      groups.set(Buffer.from(key, 'utf8').toString('utf8'), group);
    }
    return group;
  };
}

/** The holder memories a certificate file's builder uses: holder ids and holder groups. */
export interface HolderMemory {
  ids: HolderIds;
  groups: HolderGroups;
}

/**
 * Both memories for a worker's lifetime, built once beside its alias file. A file names only a few
 * thousand holders, so memories built per job started empty on every file and paid the id digest
 * and the group rule again for each holder: pass 1 cost 3 us more per row on 3,400-row files than
 * on 34,000-row ones (bench-pass1, 300k against 3M rows). Both rules are pure (the group's only
 * input beside the row is the alias file), so what a job remembers holds for the next.
 */
export function createHolderMemory(aliases: HolderAliases): HolderMemory {
  return { ids: createHolderIds(), groups: createHolderGroups(aliases) };
}
