/**
 * The holder-name contains match is the same rule as certificate search's holder
 * filter (a name taken from /holders finds every certificate of that holder,
 * whatever spelling a portal used); it lives once, in the shared text fragments: lower case,
 * "&" spelled "and", only letters and digits kept, matched on a field indexed with
 * the contains_key normalizer (holders: name.contains).
 */
export { containsKey, containsMatch } from '../../query/text.ts';
