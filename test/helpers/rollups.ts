import type { Client } from '@opensearch-project/opensearch';
import { aliasTargets } from '../../indexer/indices/ensure.ts';
import { rebuildRollups } from '../../indexer/rollups/rebuild.ts';
import { aliasName } from '../../services/domain/datasets.ts';

/**
 * After a test writes certificates straight into the index (not through the worker, which keeps
 * the rollups as it loads): their rollups made from them, as taxcert reindex makes them, and refreshed.
 */
export async function rollUp(client: Client, prefix: string): Promise<void> {
  const [index] = await aliasTargets(client, aliasName(prefix, 'certificates'));
  await rebuildRollups(client, index!);
  await client.indices.refresh({ index: index! });
}
