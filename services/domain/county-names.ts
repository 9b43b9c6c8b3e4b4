import type { RegistryCounty as County } from './registry.ts';

/**
 * A county as a person types it: the slug, the name in any case ("Miami-Dade", "miami dade",
 * "St. Johns County"), the FIPS code or the revenue county number. Shared by the CLI's
 * --county and the account page's webhook form, so both read a name the same way.
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
