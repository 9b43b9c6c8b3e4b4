import type { Client } from '@opensearch-project/opensearch';
import { CERTIFICATES_ONLY } from '../../services/engine/dataset-aliases.ts';
import { aliasTargets } from './ensure.ts';
import { loadMapping } from '../../services/engine/mapping-file.ts';
import { savedSearchIndexName } from '../../services/engine/saved-search-index.ts';
import { aliasName, DATASETS, type Dataset, physicalPattern } from '../../services/domain/datasets.ts';

export interface IndexDescription {
  dataset: Dataset;
  alias: string;
  /** null when the alias does not exist yet. */
  index: string | null;
  documents: number | null;
  /** The version the live index was built from, and the one the mapping file holds now. */
  mappingVersion: number | null;
  fileVersion: number;
}

/** Per dataset: alias, physical index and document count (for `taxcert status`). */
export async function describeIndices(client: Client, prefix: string): Promise<IndexDescription[]> {
  const pattern = physicalPattern(prefix);
  const out: IndexDescription[] = [];
  for (const dataset of DATASETS) {
    const alias = aliasName(prefix, dataset);
    const index = (await aliasTargets(client, alias))[0] ?? null;
    const fileVersion = loadMapping(dataset).version;
    if (index === null) {
      out.push({ dataset, alias, index, documents: null, mappingVersion: null, fileVersion });
      continue;
    }
    // The dataset's documents: a certificates index also holds its rollups, which are not counted.
    const count = await client.count({ index, body: { query: CERTIFICATES_ONLY } });
    const version = pattern.exec(index)?.[2];
    out.push({
      dataset,
      alias,
      index,
      documents: count.body.count,
      mappingVersion: version === undefined ? null : Number(version),
      fileVersion,
    });
  }
  return out;
}

/**
 * Deletes every physical index of this prefix (and so its aliases) and its saved searches'
 * percolator index, whose name no `<prefix>-*` pattern matches; other prefixes are untouched.
 */
export async function dropIndices(client: Client, prefix: string): Promise<string[]> {
  const pattern = physicalPattern(prefix);
  const res = await client.cat.indices({ index: `${prefix}-*`, format: 'json', h: ['index'], expand_wildcards: 'all' });
  const rows = res.body as Array<{ index?: string }>;
  const names = rows.map((r) => r.index ?? '').filter((name) => pattern.test(name));
  // Chunked so the URL stays short however many leftovers a crashed test left.
  for (let i = 0; i < names.length; i += 50) {
    await client.indices.delete({ index: names.slice(i, i + 50).join(','), ignore_unavailable: true });
  }
  const saved = savedSearchIndexName(prefix);
  if ((await client.indices.exists({ index: saved })).body) {
    await client.indices.delete({ index: saved, ignore_unavailable: true });
    names.push(saved);
  }
  return names;
}
