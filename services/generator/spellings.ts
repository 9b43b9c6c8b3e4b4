import { hashString, seedOf } from './prng.ts';

/**
 * Institutions' names as the files spell them. A fund's entities reach the county
 * rolls through different clerks, portals and years, so one entity appears as
 * "FL TAX LIEN FUND 11 LLC" in one file and "Fl Tax Lien Fund 11, L.L.C." in
 * another; custodial accounts as "AS CUST FOR" or "AS CUSTODIAN FOR". Each file
 * (county and tax year) picks one spelling per fund family, so a family shows
 * several spellings across files and years but one within a file. Holder groups
 * (services/domain/holder-groups.ts) must see through these.
 */

const LEGAL_FORM = /\b(LLC|LP|LLLP|INC|CORP|NA)$/;
const DOTTED: Record<string, string> = { LLC: 'L.L.C.', LP: 'L.P.', LLLP: 'L.L.L.P.', INC: 'INC.', CORP: 'CORP.', NA: 'N.A.' };
const SMALL_WORDS = new Set(['FOR', 'AS', 'OF', 'AND', 'FBO']);

function titleCase(name: string): string {
  return name
    .split(' ')
    .map((w) => {
      if (/^\d|^[IVX]+$|^#/.test(w) || /^[A-Z]\.[A-Z.]*$/.test(w)) return w;
      if (SMALL_WORDS.has(w)) return w.toLowerCase();
      return w.charAt(0) + w.slice(1).toLowerCase();
    })
    .join(' ');
}

/** The spellings, by style number; 0 is the canonical upper-case form. */
export const SPELLING_STYLES: readonly ((name: string) => string)[] = [
  (name) => name,
  // Fl Tax Lien Fund 3, L.L.C.
  (name) => titleCase(name.replace(LEGAL_FORM, (f) => DOTTED[f]!)).replace(/ (L\.L\.C\.|L\.P\.|L\.L\.L\.P\.|Inc\.|Corp\.|N\.A\.)$/, ', $1'),
  // FL TAX LIEN FUND 3, LLC
  (name) => name.replace(/ (LLC|LP|LLLP|INC|CORP)$/, ', $1'),
  // FL TAX LIEN FUND 3 L.L.C. ; AS CUSTODIAN FOR
  (name) =>
    name
      .replace(LEGAL_FORM, (f) => DOTTED[f]!)
      .replace(/ CUST (FOR|FBO) /, ' AS CUSTODIAN FOR ')
      .replace(/ AS CUST FOR /, ' AS CUSTODIAN FOR '),
  // FL TAX LIEN FUND NO 3 LLC
  (name) => name.replace(/ (\d+) (LLC|LP)$/, ' NO. $1 $2').replace(/ NA AS CUST /, ' N A AS CUSTODIAN '),
];
/** Weights of the styles: the canonical spelling stays the most common. */
const STYLE_WEIGHTS = [45, 20, 14, 13, 8] as const;
const WEIGHT_TOTAL = STYLE_WEIGHTS.reduce((a, b) => a + b, 0);

/** A family's key: its name without the entity number or vintage, so every entity of a family spells alike in one file. */
function familyKey(name: string): string {
  return name.replace(/\d+(-[A-Z])?/g, '#');
}

/** The spelling `name` takes in the file seeded by `fileSeed`; never longer than `maxLength` (the canonical name is kept then). */
export function spellingIn(fileSeed: number, name: string, maxLength: number): string {
  const u = (seedOf(fileSeed, hashString(familyKey(name))) >>> 0) % WEIGHT_TOTAL;
  let style = 0;
  for (let acc = STYLE_WEIGHTS[0]; u >= acc; acc += STYLE_WEIGHTS[style]!) style++;
  const spelled = SPELLING_STYLES[style]!(name);
  return spelled.length <= maxLength ? spelled : name;
}
