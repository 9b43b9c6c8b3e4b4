/**
 * A raw query string as names and string values (a repeated name gives an
 * array), which coerce.ts turns into the schemas' native values exactly as it
 * turns an MCP tool's arguments.
 */

export type RawQuery = Record<string, string | string[] | undefined>;

/** Set by the query-string parser when a value's percent-encoding is broken. */
export const MALFORMED = Symbol('malformed query parameters');
export type ParsedQuery = RawQuery & { [MALFORMED]?: string[] };

/**
 * Decodes a query string strictly: '+' is a space, a broken %-sequence is not
 * guessed at but reported (by parameter name) for the validator to turn into a 400.
 */
export function parseQueryString(text: string): ParsedQuery {
  const out: ParsedQuery = {};
  const malformed: string[] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const rawName = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const name = decode(rawName);
    const val = decode(rawValue);
    if (name === null || val === null) {
      malformed.push(name ?? rawName);
      continue;
    }
    const prev = out[name];
    out[name] = prev === undefined ? val : Array.isArray(prev) ? [...prev, val] : [prev, val];
  }
  if (malformed.length > 0) Object.defineProperty(out, MALFORMED, { value: malformed, enumerable: false });
  return out;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}
