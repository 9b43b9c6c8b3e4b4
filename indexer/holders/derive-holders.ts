import type { Client } from '@opensearch-project/opensearch';
import { countyHolderName } from '../../services/domain/county-facts.ts';
import { createBulkWriter } from '../load/bulk.ts';
import { holderId } from '../../services/domain/ids.ts';
import { BulkMode } from '../indices/bulk-mode.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { HolderRecord } from '../../services/domain/records.ts';
import type { Registry } from '../../services/domain/registry.ts';
import { buildHoldersQuery } from './build-holders-query.ts';
import { type HolderBucket, mapHolder } from './map-holder.ts';

export interface DeriveHoldersDeps {
  opensearch: Client;
  prefix: string;
  /** The configured OPENSEARCH_REPLICAS, restored after the bulk load. */
  replicas: number;
  now?: () => Date;
  /** Where the county names come from (the process's one registry). */
  registry: Registry;
  /** Holders per aggregation page. */
  pageSize?: number;
}

export interface DeriveHoldersResult {
  /** Holder documents written. */
  holders: number;
  created: number;
  updated: number;
  /** Holders that failed HolderRecord or were refused by OpenSearch, with why; none is dropped silently. */
  rejected: Array<{ id: string; reasons: string[] }>;
}

const PAGE_SIZE = 500;

/**
 * Rebuilds the holders index from the certificates index: one aggregation page
 * of holders at a time, each validated and bulk-written under its holder_id.
 * Upserts only: a holder whose certificates all left the index keeps its last
 * document (nothing in the product deletes certificates today).
 */
export async function deriveHolders(deps: DeriveHoldersDeps): Promise<DeriveHoldersResult> {
  const { registry } = deps;
  const countyHolderIds = registry.counties.map((c) => holderId(countyHolderName(c.name)));
  const updatedAt = (deps.now?.() ?? new Date()).toISOString();
  const alias = aliasName(deps.prefix, 'holders');
  const rejected: DeriveHoldersResult['rejected'] = [];
  let holders = 0;

  const bulkMode = new BulkMode(deps.opensearch, { index: alias, dataset: 'holders', replicas: deps.replicas });
  const totals = await bulkMode.run(async () => {
    const writer = createBulkWriter(deps.opensearch, { index: alias });
    let after: { holder_id: string } | null = null;
    do {
      const body = buildHoldersQuery({
        countyHolderIds,
        after,
        pageSize: deps.pageSize ?? PAGE_SIZE,
        maxCounties: Math.max(registry.counties.length, 1),
      });
      const res = await deps.opensearch.search({ index: aliasName(deps.prefix, 'certificates'), body: body as never });
      const page = (
        res.body as unknown as {
          aggregations: { holders: { buckets: HolderBucket[]; after_key?: { holder_id: string } } };
        }
      ).aggregations.holders;
      for (const bucket of page.buckets) {
        const parsed = HolderRecord.safeParse(mapHolder(bucket, updatedAt));
        if (!parsed.success) {
          rejected.push({
            id: bucket.key.holder_id,
            reasons: parsed.error.issues.map((i) => `${i.path.join('.') || 'holder'}: ${i.message}`),
          });
          continue;
        }
        await writer.add(parsed.data.id, parsed.data);
        holders++;
      }
      // The last page may still carry an after_key; an empty page is the end.
      after = page.buckets.length > 0 ? (page.after_key ?? null) : null;
    } while (after !== null);
    return writer.flush();
  });
  // Leaving bulk mode refreshed the index: the holders are searchable from here on.

  for (const f of totals.failures) rejected.push({ id: f.id, reasons: [`index: ${f.type}: ${f.reason}`] });
  return { holders: holders - totals.failed, created: totals.created, updated: totals.updated, rejected };
}
