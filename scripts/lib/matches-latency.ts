import { Prng } from '../../services/generator/prng.ts';
import { apiCall } from './api-call.ts';
import { percentile } from './percentile.ts';
import type { CreatedSearch } from './saved-search-setup.ts';

/**
 * What a saved search's matches cost against the same search asked directly: for `searches` of
 * the saved searches (a seeded pick), `requests` calls of GET /saved-searches/{id}/matches and as
 * many of GET /certificates/search with the search's own params, same key, one at a time over
 * HTTP against the stack, the two interleaved (which goes first alternates, so neither always
 * finds the other's work in the engine's caches). Target: matches p50 within 10% of search p50.
 */

/** A saved search's params as /certificates/search's query string (lists comma-separated). */
export function searchQuery(params: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) q.set(name, Array.isArray(value) ? value.join(',') : String(value));
  return q.toString();
}

export async function compareMatchesLatency(
  baseUrl: string,
  all: readonly CreatedSearch[],
  options: { searches: number; requests: number; seed: number },
) {
  const random = new Prng(options.seed);
  const pool = [...all];
  const chosen: CreatedSearch[] = [];
  while (chosen.length < Math.min(options.searches, all.length)) chosen.push(pool.splice(random.int(pool.length), 1)[0]!);
  const matchesMs: number[] = [];
  const searchMs: number[] = [];
  const call = async (url: string, key: string, into: number[]) => {
    const res = await apiCall(url, key);
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    into.push(res.ms);
  };
  for (let i = 0; i < options.requests; i++) {
    const s = chosen[i % chosen.length]!;
    const matches = () => call(`${baseUrl}/api/v1/saved-searches/${s.id}/matches`, s.key, matchesMs);
    const search = () => call(`${baseUrl}/api/v1/certificates/search?${searchQuery(s.params)}`, s.key, searchMs);
    if (i % 2 === 0) {
      await matches();
      await search();
    } else {
      await search();
      await matches();
    }
  }
  const r1 = (x: number) => Math.round(x * 10) / 10;
  const matchesP50 = r1(percentile(matchesMs, 50));
  const searchP50 = r1(percentile(searchMs, 50));
  return {
    searches: chosen.length,
    requests: options.requests,
    matchesP50Ms: matchesP50,
    matchesP90Ms: r1(percentile(matchesMs, 90)),
    searchP50Ms: searchP50,
    searchP90Ms: r1(percentile(searchMs, 90)),
    /** matches p50 over search p50 (target <= 1.10). */
    p50Ratio: Math.round((matchesP50 / searchP50) * 1000) / 1000,
  };
}
