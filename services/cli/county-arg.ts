import type { Registry, RegistryCounty as County } from '../domain/registry.ts';
import { countyKey, findCounty } from '../domain/county-names.ts';
import { CliError, USAGE_EXIT } from './output.ts';

export { countyKey, findCounty };

/**
 * `--county` as a person types it: the slug, the name in any case ("Miami-Dade",
 * "miami dade", "St. Johns County"), the FIPS code or the revenue county number.
 */

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** Up to three slugs close to what was typed: a slug containing it, or within a few typos. */
export function suggestCounties(counties: readonly County[], input: string): string[] {
  const key = countyKey(input);
  if (key.length < 2) return [];
  const containing = counties.filter((c) => c.slug.includes(key)).map((c) => c.slug);
  if (containing.length > 0) return containing.slice(0, 3);
  const scored = counties
    .map((c) => ({ slug: c.slug, score: editDistance(key, c.slug) }))
    .filter((s) => s.score <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.score - b.score || a.slug.localeCompare(b.slug));
  return scored.slice(0, 3).map((s) => s.slug);
}

/** Resolves --county, or fails with a usage error that suggests slugs and points to `taxcert counties`. */
export function resolveCountyArg(registry: Registry, input: string): County {
  const county = findCounty(registry.counties, input);
  if (county) return county;
  const near = suggestCounties(registry.counties, input);
  const hint = near.length > 0 ? `; did you mean ${near.join(', ')}?` : '';
  throw new CliError(`--county: unknown county "${input}"${hint} (taxcert counties lists them)`, USAGE_EXIT);
}
