/**
 * A name as a contains key: lower case, "&" spelled "and", only letters and digits kept. The
 * engine's `contains_key` normalizer (mappings/certificates.json) does the same to the indexed
 * names (and also folds accents, which it applies to the pattern too), so "Smith & Jones, L.L.C."
 * and "SMITH AND JONES LLC" have one key. The API builds its contains patterns with it and the
 * worker judges a document's name by it (on ASCII names, where folding changes nothing).
 */
export function containsKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}
