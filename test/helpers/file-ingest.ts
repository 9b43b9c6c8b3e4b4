import { fileURLToPath } from 'node:url';
import { FileRejectedError } from '../../indexer/errors.ts';
import { createLoadResources, type LoadResources } from '../../indexer/load/load-resources.ts';
import { processFile } from '../../indexer/process-file.ts';
import type { IngestJob, IngestResult } from '../../indexer/queue.ts';
import { aliasName, type Dataset } from '../../services/domain/datasets.ts';
import { openTestRuntime, type TestRuntime } from './runtime.ts';

/**
 * Shared setup of the tests that load one dataset file through processFile, the
 * way the worker runs a job, on this test file's own indices and SQLite.
 */
export interface FileIngest extends TestRuntime {
  /** Runs one job; `at` is the time the load stamps on records and freshness. */
  load(job: IngestJob, at: string): Promise<IngestResult>;
  /** Every document of a dataset, sorted by id. */
  documents(dataset: Dataset): Promise<Array<Record<string, unknown>>>;
}

/** `concurrency`: files the shared load resources expect at once (the worker's WORKER_CONCURRENCY); 1 unless given. */
export async function openFileIngest(fileUrl: string, env: Record<string, string> = {}, concurrency = 1): Promise<FileIngest> {
  const t = await openTestRuntime(fileUrl, env);
  const { runtime, config } = t;
  let load: LoadResources | undefined;
  return {
    ...t,
    load(job, at) {
      load ??= createLoadResources(runtime.opensearch, {
        prefix: config.INDEX_PREFIX,
        replicas: 0,
        concurrency,
        logger: runtime.logger,
      });
      return processFile(job, {
        opensearch: runtime.opensearch,
        sql: runtime.sql,
        registry: runtime.registry,
        logger: runtime.logger,
        prefix: config.INDEX_PREFIX,
        parcelBaseUrl: config.PARCEL_BASE_URL,
        load,
        now: () => new Date(at),
      });
    },
    async documents(dataset) {
      const res = await runtime.opensearch.search({
        index: aliasName(config.INDEX_PREFIX, dataset),
        body: { size: 100, sort: [{ id: 'asc' }] },
      });
      return (res.body.hits.hits as Array<{ _source: Record<string, unknown> }>).map((h) => h._source);
    },
  };
}

/** A fixture file under fixtures/files/<folder>/. */
export const fixtureFile = (folder: string, name: string) =>
  fileURLToPath(new URL(`../../fixtures/files/${folder}/${name}`, import.meta.url));

/** The FileRejectedError code a load ends in; fails the test when the file loaded. */
export async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof FileRejectedError) return err.code;
    throw err;
  }
  throw new Error('the file was not rejected');
}
