/**
 * Pure Query DSL fragments for user text. User text only ever reaches the engine
 * inside term, match, multi_match or wildcard queries, never query_string, so
 * characters a query parser would read (* : " ( ) \ AND OR) stay plain text; the one
 * place a pattern is built (wildcard), its special characters are escaped.
 */

import { containsKey } from '../../domain/contains-key.ts';
import type { Clause } from './filters.ts';

export { containsKey };

/** Escapes the characters a wildcard pattern gives meaning to (*, ?, \). */
export function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, (c) => `\\${c}`);
}

/** True when a name has something to match on (not only punctuation or spaces). */
export function hasContainsKey(text: string): boolean {
  return containsKey(text).length > 0;
}

/** A case-, punctuation- and &/and-insensitive contains match on a field indexed with the contains_key normalizer. */
export function containsMatch(field: string, text: string): Clause {
  return { wildcard: { [field]: { value: `*${escapeWildcard(containsKey(text))}*` } } };
}

/**
 * An exact match on a normalized key field (certificate number, parcel id) that
 * outranks any text match: a constant score far above what BM25 gives a short
 * query, so the one certificate a user typed the number of comes first.
 */
export const EXACT_KEY_BOOST = 1000;

export function exactKey(field: string, key: string): Clause {
  return { constant_score: { filter: { term: { [field]: key } }, boost: EXACT_KEY_BOOST } };
}

/** Every word must appear, each in any of the fields (a name in one, a city in another). */
export function allWordsAcross(text: string, fields: readonly string[]): Clause {
  return { multi_match: { query: text, type: 'cross_fields', operator: 'and', fields: [...fields] } };
}

/**
 * Every word must appear in the field, each allowed a typo (one edit from 3
 * letters, two from 6; the first letter must be right, which keeps the expansion
 * of each word small).
 */
export function allWordsWithTypos(field: string, text: string): Clause {
  return { match: { [field]: { query: text, operator: 'and', fuzziness: 'AUTO', prefix_length: 1, max_expansions: 50 } } };
}
