import type { Client } from '@opensearch-project/opensearch';
import { fieldTypes } from '../search.ts';
import { PageMarks } from './marks.ts';
import { isScoreKey, type SortKey } from './sort.ts';
import { orderTwinOf } from './string-cuts.ts';

/**
 * What the page engine remembers between requests: the sort fields' types and the marks of
 * pages placed before (marks.ts). Owned by whoever builds the engine client (the runtime
 * builds one per process, services/process/runtime.ts) and passed to every page read beside that
 * client; a test that reads pages with a client of its own makes its own.
 */
export class PagingCaches {
  readonly fieldTypes = new FieldTypes();
  readonly marks = new PageMarks();
}

/**
 * Sort field types change only with a mapping, that is with a reindex behind the alias;
 * a minute of memory saves a field_caps round trip on every deep page.
 */
const TYPES_TTL_MS = 60_000;

/** The types of the fields a deep page cuts, by index and fields, each kept for a minute. */
export class FieldTypes {
  private readonly known = new Map<string, { at: number; types: Record<string, string> }>();

  /** The types of the sort's fields on `index`, and of each key's order twin (a string key with one is cut on it). */
  async ofSort(client: Client, index: string, sort: readonly SortKey[]): Promise<Record<string, string>> {
    const fields = sort.flatMap((k) => (isScoreKey(k) ? [] : [k.field, orderTwinOf(k.field)]));
    const key = `${index}\u0000${fields.join(',')}`;
    const known = this.known.get(key);
    if (known && Date.now() - known.at < TYPES_TTL_MS) return known.types;
    const types = await fieldTypes(client, index, fields);
    this.known.set(key, { at: Date.now(), types });
    return types;
  }
}
