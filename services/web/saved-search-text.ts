import type { ParamIssue } from '../api/errors.ts';
import { MALFORMED, parseQueryString, type RawQuery } from '../api/params/query-string.ts';
import type { Registry } from '../domain/registry.ts';
import { count, day } from './format.ts';

/**
 * A saved search's params as the account page writes and reads them: typed as the query string
 * of /certificates/search (what a customer already has in a script or a browser's address bar),
 * shown back as that query string and as one readable line per filter. The rules are the API's
 * (readSavedParams); nothing here checks a value.
 */

/**
 * The query string a person typed, read as the API reads a request's (params/query-string.ts): a
 * repeated name is a list, '+' is a space. A whole address pasted in (https://…/search?…, /api/…?…)
 * counts from after its '?' up to its '#', as a browser would send it; a leading '?' is dropped.
 * A broken %-sequence is the API's own problem of that parameter.
 */
export function readSearchText(text: string): { params: RawQuery; problems: ParamIssue[] } {
  let query = text.trim();
  if (query.startsWith('?')) query = query.slice(1);
  else if (/^(https?:\/\/|\/)/i.test(query)) {
    const address = query.split('#')[0]!;
    const at = address.indexOf('?');
    query = at === -1 ? '' : address.slice(at + 1);
  }
  const parsed = parseQueryString(query);
  const problems = (parsed[MALFORMED] ?? []).map((parameter) => ({
    parameter,
    message: 'malformed percent-encoding in the query string',
  }));
  return { params: { ...parsed }, problems };
}

/** Stored params as a query string /certificates/search takes: lists comma-separated, values percent-encoded. */
export function queryStringOf(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([name, value]) => {
      const items = Array.isArray(value) ? value : [value];
      return `${encodeURIComponent(name)}=${items.map((v) => encodeURIComponent(String(v))).join(',')}`;
    })
    .join('&');
}

const list = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).map(String);
const dollars = (value: unknown) => `${count(Number(value))} USD`;
const quoted = (value: unknown) => `“${String(value)}”`;

/**
 * One readable line per filter, in the search's own order; a filter this function does not know
 * (one added to the search later) is shown by its name and value rather than left out.
 */
export function summarizeParams(params: Record<string, unknown>, registry: Pick<Registry, 'county'>): string[] {
  const p = { ...params };
  const lines: string[] = [];
  const take = (name: string) => {
    const value = p[name];
    delete p[name];
    return value;
  };
  const range = (label: string, low: unknown, high: unknown, show: (v: unknown) => string, words: [string, string]) => {
    if (low !== undefined && high !== undefined) lines.push(`${label} from ${show(low)} to ${show(high)}`);
    else if (low !== undefined) lines.push(`${label} ${words[0]} ${show(low)}`);
    else if (high !== undefined) lines.push(`${label} ${words[1]} ${show(high)}`);
  };

  const query = take('query');
  if (query !== undefined) lines.push(`Text ${quoted(query)}`);
  const county = take('county');
  if (county !== undefined) {
    const names = list(county).map((slug) => registry.county(slug)?.name ?? slug);
    lines.push(`${names.length === 1 ? 'County' : 'Counties'}: ${names.join(', ')}`);
  }
  const status = take('status');
  if (status !== undefined) lines.push(`Status: ${list(status).join(' or ').replaceAll('_', ' ')}`);
  const years = take('tax_year');
  if (years !== undefined) lines.push(`${list(years).length === 1 ? 'Tax year' : 'Tax years'}: ${list(years).join(', ')}`);
  const holder = take('holder');
  if (holder !== undefined) lines.push(`Holder name contains ${quoted(holder)}`);
  const vendor = take('vendor');
  if (vendor !== undefined) lines.push(`${list(vendor).length === 1 ? 'Vendor' : 'Vendors'}: ${list(vendor).join(', ')}`);
  range('Face amount', take('face_min'), take('face_max'), dollars, ['at least', 'at most']);
  range('Sold', take('sale_after'), take('sale_before'), (d) => day(String(d)), ['on or after', 'on or before']);
  const redeemed = take('redeemed');
  if (redeemed !== undefined) lines.push(redeemed === true ? 'Redeemed only' : 'Not redeemed');
  const deed = take('deed_eligible_by');
  if (deed !== undefined) lines.push(`Tax deed application allowed by ${day(String(deed))}`);
  const expires = take('expires_before');
  if (expires !== undefined) lines.push(`Expiring before ${day(String(expires))}`);
  for (const [name, value] of Object.entries(p)) lines.push(`${name}: ${list(value).join(', ')}`);
  return lines.length === 0 ? ['Every certificate (no filters)'] : lines;
}
