import type { Client } from '@opensearch-project/opensearch';
import { createPhysicalIndex, errorInfo } from './create.ts';
import { markerKey } from '../../services/engine/rollups/rollup-docs.ts';
import { writeMarker } from '../rollups/commit.ts';
import { datasetAliases } from '../../services/engine/dataset-aliases.ts';
import { loadMapping } from '../../services/engine/mapping-file.ts';
import { aliasName, DATASETS, type Dataset, physicalName } from '../../services/domain/datasets.ts';

/** The physical indices an alias points to today; [] when the alias does not exist. */
export async function aliasTargets(client: Client, alias: string): Promise<string[]> {
  try {
    const res = await client.indices.getAlias({ name: alias });
    return Object.keys(res.body ?? {}).sort();
  } catch (err) {
    if (errorInfo(err).status === 404) return [];
    throw err;
  }
}

export interface EnsuredIndex {
  dataset: Dataset;
  alias: string;
  index: string;
  created: boolean;
}

/**
 * Creates, for every dataset whose alias is missing, a physical index from its
 * mapping file with the alias attached. Idempotent: an existing alias is left
 * alone, even when its mapping version is older (that is what reindex is for).
 */
export async function ensureIndices(client: Client, prefix: string, replicas: number, shards?: number): Promise<EnsuredIndex[]> {
  const out: EnsuredIndex[] = [];
  for (const dataset of DATASETS) out.push(await ensureOne(client, prefix, dataset, replicas, shards));
  return out;
}

async function ensureOne(client: Client, prefix: string, dataset: Dataset, replicas: number, shards?: number): Promise<EnsuredIndex> {
  const alias = aliasName(prefix, dataset);
  let targets = await aliasTargets(client, alias);
  let created = false;
  if (targets.length === 0) {
    const mapping = loadMapping(dataset);
    const name = physicalName(prefix, dataset, mapping.version);
    try {
      await createPhysicalIndex(client, name, dataset, mapping, { replicas, shards, aliases: datasetAliases(prefix, dataset) });
      created = true;
      // A new certificates index is empty, so its (empty) rollups are exact: from now on loads keep them.
      if (dataset === 'certificates') await writeMarker(client, name, markerKey('built'));
    } catch (err) {
      // Same name from another process: it made what we wanted.
      if (errorInfo(err).type !== 'resource_already_exists_exception') throw err;
    }
    targets = await aliasTargets(client, alias);
  }
  if (targets.length > 1) targets = [await settleRace(client, targets)];
  const index = targets[0];
  if (index === undefined) throw new Error(`alias ${alias} vanished while being created`);
  return { dataset, alias, index, created };
}

/**
 * Two processes that both saw no alias each create an index with it, leaving the
 * alias on two indices (writes through it then fail). Both settle on the same
 * winner, the oldest index (it is the only one anyone could have written to
 * through the alias while it was alone), and drop the others in one atomic call.
 */
async function settleRace(client: Client, targets: string[]): Promise<string> {
  // A loser the other racer already dropped is skipped, not a 404 (seen in CI: the other process
  // settled between our alias read and this call).
  const res = await client.indices.getSettings({ index: targets.join(','), name: 'index.creation_date', ignore_unavailable: true });
  const body = res.body as Record<string, { settings: { index: { creation_date: string } } }>;
  const created = (name: string) => Number(body[name]?.settings.index.creation_date ?? Number.MAX_SAFE_INTEGER);
  const [winner, ...losers] = [...targets].sort((a, b) => created(a) - created(b) || a.localeCompare(b));
  try {
    await client.indices.updateAliases({ body: { actions: losers.map((index) => ({ remove_index: { index } })) } });
  } catch (err) {
    // The other racer settled first.
    if (errorInfo(err).status !== 404) throw err;
  }
  return winner!;
}
