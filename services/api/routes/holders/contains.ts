/**
 * The holder-name contains match, the same rule as certificate search's holder
 * filter (issue 9 item 5): lower case, "&" spelled "and", only letters and digits
 * kept, so "Smith & Jones, L.L.C." and "smith and jones llc" have one key. The
 * holders mapping indexes name.contains with the contains_key normalizer, which
 * does the same to the stored names (and folds accents, in the pattern too).
 */
export function containsKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Wildcard metacharacters; a contains key holds none, escaping keeps that from mattering. */
function escapeWildcard(text: string): string {
  return text.replace(/[\\*?]/g, '\\$&');
}

export function containsMatch(field: string, text: string): Record<string, unknown> {
  return { wildcard: { [field]: { value: `*${escapeWildcard(containsKey(text))}*` } } };
}
