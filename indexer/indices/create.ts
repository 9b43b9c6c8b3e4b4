import type { Client } from '@opensearch-project/opensearch';
import type { MappingFile } from '../../services/engine/mapping-file.ts';
import type { Dataset } from '../../services/domain/datasets.ts';

export interface CreateOptions {
  replicas: number;
  /** Primary shards; default the mapping file's. */
  shards?: number;
  /** Aliases to attach in the same request, with their filters (first generation only: services/engine/dataset-aliases.ts). */
  aliases?: Record<string, { filter?: object }>;
  /** Start without refresh and replicas, for a build that is filled before anyone reads it. */
  bulk?: boolean;
}

/** Creates one physical index from a mapping file, stamping dataset and version into _meta. */
export async function createPhysicalIndex(
  client: Client,
  name: string,
  dataset: Dataset,
  mapping: MappingFile,
  options: CreateOptions,
): Promise<void> {
  const index = {
    ...mapping.settings.index,
    number_of_replicas: options.bulk ? 0 : options.replicas,
    ...(options.shards ? { number_of_shards: options.shards } : {}),
    ...(options.bulk ? { refresh_interval: '-1' } : {}),
  };
  const mappings = { ...mapping.mappings, _meta: { dataset, mapping_version: mapping.version } };
  await client.indices.create({
    index: name,
    body: {
      settings: { ...mapping.settings, index },
      mappings,
      ...(options.aliases ? { aliases: options.aliases } : {}),
    } as never,
  });
}

/** The shape of an OpenSearch error response we branch on: its HTTP status and error type. */
export function errorInfo(err: unknown): { status: number | undefined; type: string | undefined } {
  const e = err as { meta?: { statusCode?: number; body?: { error?: { type?: string } } } };
  return { status: e?.meta?.statusCode, type: e?.meta?.body?.error?.type };
}

export async function deleteIndexQuietly(client: Client, name: string): Promise<void> {
  try {
    await client.indices.delete({ index: name });
  } catch (err) {
    if (errorInfo(err).status !== 404) throw err;
  }
}
