/**
 * The city and ZIP code a certificate's situs address names, for the `city` and `zip` filters of
 * certificates with no parcel row. Counties write the full address as
 * "123 MAIN ST, MIAMI, FL 33101" (street, city, state and ZIP, comma separated); the city is the
 * part before the state, the ZIP the five digits after it (a ZIP+4 keeps its first five). An
 * address that does not end so names neither: nothing is guessed from a bare street.
 */

export interface SitusCityZip {
  situs_city?: string;
  situs_zip?: string;
}

const TAIL = /,\s*([^,]*?)\s*,?\s*\bFL(?:A|ORIDA)?\.?\s*(\d{5})?(?:-\d{4})?\s*$/i;

/** City upper case with single spaces ("Fort  Myers" -> "FORT MYERS"), as the parcel roll writes it. */
export function normalizeCity(city: string): string {
  return city.trim().replace(/\s+/g, ' ').toUpperCase();
}

export function parseSitusCityZip(address: string | null | undefined): SitusCityZip {
  if (!address) return {};
  const m = TAIL.exec(address);
  if (!m) return {};
  const city = normalizeCity(m[1] ?? '');
  const out: SitusCityZip = {};
  // A city is words: "FL 33101" alone after the street, or a number where the city belongs, is none.
  if (/^[A-Z][A-Z .'-]*$/.test(city)) out.situs_city = city;
  if (m[2]) out.situs_zip = m[2];
  return out;
}
