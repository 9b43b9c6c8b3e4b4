import { readFileSync } from 'node:fs';
import type { Dataset } from '../domain/datasets.ts';

/** mappings/<dataset>.json: bump version whenever settings or mappings change, then reindex. */
export interface MappingFile {
  version: number;
  settings: { index?: { refresh_interval?: string; number_of_replicas?: number } & Record<string, unknown> } & Record<string, unknown>;
  mappings: Record<string, unknown>;
}

/** Read on each call (cheap, rare) so a process always builds from the file on disk. */
export function loadMapping(dataset: Dataset): MappingFile {
  const url = new URL(`../../mappings/${dataset}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as MappingFile;
}

/** The refresh interval searches expect, as the mapping file declares it. */
export function searchRefreshInterval(mapping: MappingFile): string {
  return mapping.settings.index?.refresh_interval ?? '1s';
}
