import { loadRegistry, type RegistryCounty as County } from '../services/domain/registry.ts';

/**
 * Names the county a file's county reference points at, for wrong-county messages: a bare "16"
 * told an operator nothing, "16 (Broward, revenue county 16)" does (issue 12, item 9).
 * Called only when a file is rejected, so reading the registry here costs nothing per row.
 */
export function describeCountyRef(ref: string, counties: readonly County[] = loadRegistry().counties): string {
  const raw = ref.trim();
  const key = raw.toLowerCase().replace(/\s+county$/, '');
  const squeezed = key.replace(/[^a-z]/g, '');
  const quoted = JSON.stringify(raw);
  if (/^\d{5}$/.test(key)) {
    const c = counties.find((x) => x.fips === key);
    return c ? `${quoted} (${c.name}, FIPS ${c.fips})` : `${quoted} (no Florida county has that FIPS code)`;
  }
  if (/^\d{1,2}$/.test(key)) {
    const c = counties.find((x) => x.dor === key.padStart(2, '0'));
    return c ? `${quoted} (${c.name}, revenue county ${Number(c.dor)})` : `${quoted} (no Florida county has that revenue number)`;
  }
  const c = counties.find(
    (x) => x.slug === key || x.name.toLowerCase() === key || (squeezed !== '' && x.slug.replace(/-/g, '') === squeezed),
  );
  return c ? `${quoted} (${c.name})` : `${quoted} (no Florida county by that name)`;
}

/** "Miami-Dade (miami-dade)": how a message names the county a job is for. */
export function describeJobCounty(county: County): string {
  return `${county.name} (${county.slug})`;
}
