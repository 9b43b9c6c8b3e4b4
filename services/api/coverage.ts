import type { Client } from '@opensearch-project/opensearch';
import { count } from '../engine/search.ts';

/**
 * True while a dataset's alias holds no documents at all (spec 4.8, 4.9): the
 * answer then carries meta.coverage.status "not_yet_ingested". Asked only when a
 * search found nothing, so a search with rows costs no second engine call.
 */
export async function isDatasetEmpty(client: Client, alias: string): Promise<boolean> {
  return (await count(client, alias)) === 0;
}
