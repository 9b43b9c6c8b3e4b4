import type { Registry, RegistryCounty as County } from '../domain/registry.ts';
import { CliError, USAGE_EXIT } from './output.ts';

/**
 * `--county` as a person types it: the slug, the name in any case ("Miami-Dade",
 * "miami dade", "St. Johns County"), the FIPS code or the revenue county number.
 */

/** Lowercase words joined by hyphens, without a trailing "county" or dots: "St. Johns County" -> "st-johns". */
export function countyKey(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/\bsaint\b/g, 'st')
    .replace(/\s+county$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The county a --county value names, or null. */
export function findCounty(counties: readonly County[], input: string): County | null {
  const key = countyKey(input);
  if (key === '') return null;
  const squeezed = key.replace(/-/g, '');
  return (
    counties.find((c) => c.slug === key || countyKey(c.name) === key) ??
    counties.find((c) => c.slug.replace(/-/g, '') === squeezed) ??
    (/^\d{5}$/.test(key) ? counties.find((c) => c.fips === key) : undefined) ??
    (/^\d{1,2}$/.test(key) ? counties.find((c) => c.dor === key.padStart(2, '0')) : undefined) ??
    null
  );
}

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
