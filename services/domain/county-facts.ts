import type { RegistryCounty } from './registry.ts';

/** Small county facts that the certificate builder, the readers, the holder and lands builders and the generator all use. */

/** The name a county uses when it holds its own certificates (struck at the sale): "Alachua County". */
export function countyHolderName(countyName: string): string {
  return `${countyName} County`;
}

/** The parcel page of a parcel id under the configured base URL (PARCEL_BASE_URL). */
export function parcelUrl(baseUrl: string, countySlug: string, parcelId: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/${countySlug}/${encodeURIComponent(parcelId)}`;
}

/**
 * Names the county a file's county reference points at, for wrong-county messages: a bare "16"
 * told an operator nothing, "16 (Broward, revenue county 16)" does.
 */
export function describeCountyRef(ref: string, counties: readonly RegistryCounty[]): string {
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
export function describeJobCounty(county: RegistryCounty): string {
  return `${county.name} (${county.slug})`;
}
