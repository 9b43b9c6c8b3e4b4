import type { Client } from '@opensearch-project/opensearch';
import { loadMapping } from '../mapping-file.ts';
import { savedSearchIndexName, savedSearchIndexState, storedSavedSearches } from '../saved-search-index.ts';
import { splitText } from '../saved-search-counts.ts';
import { compileQuery, type Node } from './compile.ts';
import { fieldKinds } from './field-kinds.ts';

/**
 * The saved searches as the worker evaluates them: each stored query compiled once, kept in the
 * worker's memory and read again from the engine only when the saved-search index was written
 * since (its state word moved), so a file costs one small stats request, not 10,000 queries read.
 * The queries are the ones the API stored, built by the certificate search's own builder: the
 * worker never builds one.
 */
export interface CompiledSearch {
  id: string;
  query: Record<string, unknown>;
  node: Node;
  counties?: ReadonlySet<string>;
  taxYears?: ReadonlySet<number>;
  statuses?: ReadonlySet<string>;
  /**
   * A query of the form `bool { must: [text], filter }` (every search with free text) apart: its
   * text clause, that clause's key (searches sharing a text share it) and the filters compiled, so
   * a first load's count can be the worker's filters over the documents the engine says the text
   * matches.
   */
  text?: { clause: Record<string, unknown>; key: string; rest: Node };
}

interface Held {
  state: string;
  searches: CompiledSearch[];
}

const held = new Map<string, Held>();

export async function compiledSavedSearches(client: Client, prefix: string): Promise<readonly CompiledSearch[]> {
  const index = savedSearchIndexName(prefix);
  const state = await savedSearchIndexState(client, prefix);
  if (state === null) {
    held.delete(index);
    return [];
  }
  const known = held.get(index);
  if (known?.state === state) return known.searches;
  const fields = fieldKinds(loadMapping('certificates'));
  const searches: CompiledSearch[] = [];
  for await (const page of storedSavedSearches(client, prefix))
    for (const s of page) {
      const split = splitText(s.query);
      searches.push({
        id: s.id,
        query: s.query,
        node: compileQuery(fields, s.query),
        ...(split ? { text: { clause: split.text, key: JSON.stringify(split.text), rest: compileQuery(fields, split.rest) } } : {}),
        ...(s.counties ? { counties: new Set(s.counties) } : {}),
        ...(s.taxYears ? { taxYears: new Set(s.taxYears) } : {}),
        ...(s.statuses ? { statuses: new Set(s.statuses) } : {}),
      });
    }
  held.set(index, { state, searches });
  return searches;
}

/** Whether a search naming counties, tax years and statuses can match any document of the scope. */
export function meetsScope(
  s: CompiledSearch,
  scope: { counties: readonly string[]; taxYears: readonly number[]; statuses?: readonly string[] },
): boolean {
  return meets(s.counties, scope.counties) && meets(s.taxYears, scope.taxYears) && meets(s.statuses, scope.statuses);
}

/** Called for every search of every batch: a plain loop, no closure made per call. */
function meets<T>(named: ReadonlySet<T> | undefined, values: readonly T[] | undefined): boolean {
  if (!named || !values) return true;
  for (const v of values) if (named.has(v)) return true;
  return false;
}
