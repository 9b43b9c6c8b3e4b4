import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@opensearch-project/opensearch';
import { createPhysicalIndex, deleteIndexQuietly } from './create.ts';
import { aliasTargets } from './ensure.ts';
import { IndexLifecycleError } from './errors.ts';
import { loadMapping, type MappingFile, searchRefreshInterval } from '../../services/engine/mapping-file.ts';
import { aliasName, type Dataset, physicalName } from '../../services/domain/datasets.ts';
import { CERTIFICATES_ONLY, datasetAliases } from '../../services/engine/dataset-aliases.ts';

export interface ReindexProgress {
  created: number;
  total: number;
}

export interface ReindexOptions {
  onProgress?: (progress: ReindexProgress) => void;
  /** Keep the previous physical index after the swap (for a quick manual rollback). */
  keepOld?: boolean;
  /** Defaults to mappings/<dataset>.json on disk. */
  mapping?: MappingFile;
  pollIntervalMs?: number;
  /** Primary shards of the new index (OPENSEARCH_SHARDS); default: the same as the old one. */
  shards?: number;
  /** Documents per scroll batch of _reindex. */
  batchSize?: number;
  /**
   * A painless script run on each document as _reindex copies it: fills fields a newer mapping
   * adds that follow from the document alone (certificates: the id's order twin).
   */
  script?: string;
  /**
   * Runs on the new index after the copy, before the count check and the swap: fills
   * fields a newer mapping adds that _reindex cannot compute (certificates: holder groups).
   */
  afterCopy?: (index: string) => Promise<unknown>;
}

export interface ReindexResult {
  from: string;
  to: string;
  documents: number;
  oldDeleted: boolean;
}

/**
 * Builds a new physical index from the current mapping file, copies every
 * document into it, checks the count and moves the alias in one atomic
 * _aliases call, so searches see the old index or the new one, never both or
 * neither. Writers must be paused meanwhile (the worker holds the dataset):
 * documents written to the old index during the copy would not be carried over,
 * and the count check would then fail rather than lose them silently.
 *
 * On any failure before the swap the new index is deleted and the alias and old
 * index are untouched.
 */
export async function reindex(client: Client, prefix: string, dataset: Dataset, options: ReindexOptions = {}): Promise<ReindexResult> {
  const alias = aliasName(prefix, dataset);
  const from = await singleTarget(client, alias);
  const mapping = options.mapping ?? loadMapping(dataset);
  const { replicas, shards } = await layoutOf(client, from);

  await client.indices.refresh({ index: from });
  const sourceCount = await countOf(client, from);

  const to = physicalName(prefix, dataset, mapping.version);
  let swapAttempted = false;
  try {
    await createPhysicalIndex(client, to, dataset, mapping, { replicas, shards: options.shards ?? shards, bulk: true });
    await copyDocuments(client, from, to, options);
    await options.afterCopy?.(to);
    await client.indices.putSettings({
      index: to,
      body: { index: { refresh_interval: searchRefreshInterval(mapping), number_of_replicas: replicas } },
    });
    await client.indices.refresh({ index: to });
    await client.cluster.health({ index: to, wait_for_status: 'yellow', timeout: '60s' });
    const copied = await countOf(client, to);
    if (copied !== sourceCount)
      throw new IndexLifecycleError('count_mismatch', `${to} holds ${copied} documents, ${from} holds ${sourceCount}`);

    swapAttempted = true;
    // must_exist makes the swap fail if another process moved the alias meanwhile. Every alias of
    // the dataset moves in the same call (certificates: its rollups' too), with its filter.
    const onOld = new Set(
      Object.keys(((await client.indices.getAlias({ index: from })).body as Record<string, { aliases: object }>)[from]?.aliases ?? {}),
    );
    const moves = Object.entries(datasetAliases(prefix, dataset)).flatMap(([name, def]) => [
      ...(name === alias || onOld.has(name) ? [{ remove: { index: from, alias: name, must_exist: true } }] : []),
      { add: { index: to, alias: name, ...def } },
    ]);
    await client.indices.updateAliases({ body: { actions: moves } });
  } catch (err) {
    // A lost response can hide a swap that happened: never delete what the alias now serves.
    if (swapAttempted && (await aliasTargets(client, alias).catch((): string[] => [])).includes(to)) {
      return finish(client, from, to, sourceCount, options);
    }
    await deleteIndexQuietly(client, to);
    if (err instanceof IndexLifecycleError) throw err;
    throw new IndexLifecycleError(swapAttempted ? 'swap_failed' : 'reindex_failed', `reindex of ${alias} failed`, {
      cause: err,
    });
  }
  return finish(client, from, to, sourceCount, options);
}

async function finish(client: Client, from: string, to: string, documents: number, options: ReindexOptions): Promise<ReindexResult> {
  if (options.keepOld) return { from, to, documents, oldDeleted: false };
  try {
    await deleteIndexQuietly(client, from);
    return { from, to, documents, oldDeleted: true };
  } catch {
    // The swap succeeded; a leftover index is for `taxcert status` to show, not a failed reindex.
    return { from, to, documents, oldDeleted: false };
  }
}

async function singleTarget(client: Client, alias: string): Promise<string> {
  const targets = await aliasTargets(client, alias);
  if (targets.length === 0) throw new IndexLifecycleError('alias_missing', `alias ${alias} does not exist`);
  if (targets.length > 1) throw new IndexLifecycleError('alias_ambiguous', `alias ${alias} points to ${targets.join(', ')}`);
  return targets[0]!;
}

/** The old index's replicas and primary shards, which the new one keeps unless told otherwise. */
async function layoutOf(client: Client, index: string): Promise<{ replicas: number; shards: number }> {
  const res = await client.indices.getSettings({ index, name: ['index.number_of_replicas', 'index.number_of_shards'] });
  const body = res.body as Record<string, { settings: { index: { number_of_replicas?: string; number_of_shards?: string } } }>;
  const settings = body[index]?.settings.index;
  return { replicas: Number(settings?.number_of_replicas ?? 0), shards: Number(settings?.number_of_shards ?? 1) };
}

/** The dataset's own documents: a certificates index's rollups are made again, not copied or counted. */
async function countOf(client: Client, index: string): Promise<number> {
  const res = await client.count({ index, body: { query: CERTIFICATES_ONLY } });
  return res.body.count;
}

/** _reindex as a background task, polled: a large copy outlives any HTTP timeout. */
async function copyDocuments(client: Client, from: string, to: string, options: ReindexOptions): Promise<void> {
  const started = await client.reindex({
    wait_for_completion: false,
    body: {
      source: { index: from, size: options.batchSize ?? 2000, query: CERTIFICATES_ONLY },
      dest: { index: to, op_type: 'create' },
      ...(options.script ? { script: { source: options.script, lang: 'painless' } } : {}),
    },
  });
  const taskId = (started.body as { task?: string }).task;
  if (!taskId) throw new IndexLifecycleError('reindex_failed', 'the _reindex call returned no task id');
  const interval = options.pollIntervalMs ?? 1000;
  try {
    for (;;) {
      const res = await client.tasks.get({ task_id: taskId });
      const status = res.body.task.status as { created?: number; total?: number } | undefined;
      options.onProgress?.({ created: status?.created ?? 0, total: status?.total ?? 0 });
      if (res.body.completed) {
        if (res.body.error) throw new IndexLifecycleError('reindex_failed', `_reindex task failed: ${res.body.error.reason ?? 'unknown'}`);
        const response = res.body.response as { failures?: unknown[] } | undefined;
        const failures = response?.failures ?? [];
        if (failures.length > 0)
          throw new IndexLifecycleError(
            'reindex_failed',
            `_reindex rejected ${failures.length} documents, first: ${JSON.stringify(failures[0])}`,
          );
        return;
      }
      await sleep(interval);
    }
  } catch (err) {
    // Stop a copy still running into an index about to be deleted.
    await client.tasks.cancel({ task_id: taskId }).catch(() => undefined);
    throw err;
  }
}
