import type { GeneratedState } from '../../services/generator/generate-state.ts';
import { Prng } from '../../services/generator/prng.ts';

/**
 * The saved searches the ingest benchmark creates: a mix as customers would save them, drawn with
 * a fixed seed from the generated set itself, so every name, street and holder a search names
 * exists in the data. Mostly one or two counties (picked as often as the county has certificates:
 * buyers look where the certificates are), each with a status (sold, or sold and advertised), most
 * with a face range, some a tax year, an owner's surname, a street or a holder. About 15% name no
 * county; such a statewide search also names a holder, a name or street, or a face of $5,000 and
 * more (an alert on every outstanding certificate of the state would be the whole feed again).
 */

export interface SavedSearchSpec {
  name: string;
  /** The body's params, as a customer would send them. */
  params: Record<string, string | number | string[] | number[]>;
}

/** What the data offers to search on: counties by weight, owner surnames, street names, holders. */
interface Vocabulary {
  counties: { slug: string; rows: number }[];
  taxYears: number[];
  surnames: string[];
  streets: string[];
  holders: string[];
}

/** Rows read per file for the vocabulary: enough names and streets, a small share of a 1M set. */
const SAMPLE_ROWS = 300;
/** Street words that are not the street's name. */
const NOT_A_NAME = new Set([
  ...['N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW', 'UNIT', 'APT', 'LOT'],
  ...['ST', 'AVE', 'BLVD', 'RD', 'DR', 'LN', 'CT', 'PL', 'TER', 'WAY', 'CIR', 'HWY', 'PKWY', 'TRL', 'LOOP', 'RUN', 'PATH', 'ROW', 'SQ'],
]);

function vocabulary(state: GeneratedState): Vocabulary {
  const rows = new Map<string, number>();
  const surnames = new Set<string>();
  const streets = new Set<string>();
  // A list, not a set: a holder is drawn as often as it holds certificates in the sample.
  const holders: string[] = [];
  for (const plan of state.files) {
    rows.set(plan.county.slug, (rows.get(plan.county.slug) ?? 0) + plan.rows);
    let k = 0;
    for (const r of state.records(plan)) {
      if (k++ >= SAMPLE_ROWS) break;
      const surname = r.owner_name.split(/\s+/)[0]!;
      if (/^[A-Z]{3,}$/.test(surname)) surnames.add(surname);
      const street = (r.site_address_full.split(',')[0] ?? '')
        .split(/\s+/)
        .filter((w) => /^[A-Z]{2,}$/.test(w) && !NOT_A_NAME.has(w))
        .join(' ');
      if (street) streets.add(street);
      holders.push(r.holder_name);
    }
  }
  return {
    counties: [...rows].map(([slug, n]) => ({ slug, rows: n })).sort((a, b) => a.slug.localeCompare(b.slug)),
    taxYears: state.taxYears,
    surnames: [...surnames].sort(),
    streets: [...streets].sort(),
    holders,
  };
}

function weightedCounty(random: Prng, counties: Vocabulary['counties'], total: number): string {
  let x = random.next() * total;
  for (const c of counties) {
    x -= c.rows;
    if (x < 0) return c.slug;
  }
  return counties.at(-1)!.slug;
}

const FACE_MINS = [250, 500, 1000, 1500, 2000, 3000, 5000, 10_000];
const STATEWIDE_FACE_MINS = [5000, 10_000, 25_000];

export function savedSearchMix(state: GeneratedState, count: number, seed: number): SavedSearchSpec[] {
  const v = vocabulary(state);
  const total = v.counties.reduce((s, c) => s + c.rows, 0);
  const random = new Prng(seed);
  const recent = v.taxYears.slice(-5);
  const out: SavedSearchSpec[] = [];
  for (let i = 0; i < count; i++) {
    const params: SavedSearchSpec['params'] = {};
    const statewide = random.chance(0.15);
    if (!statewide) {
      const first = weightedCounty(random, v.counties, total);
      const second = random.chance(0.35) ? weightedCounty(random, v.counties, total) : first;
      params.county = first === second ? [first] : [first, second];
    }
    params.status = random.chance(0.65) ? ['sold'] : ['sold', 'advertised'];
    let faceMin: number | undefined;
    if (random.chance(0.55)) {
      faceMin = random.pick(FACE_MINS);
      params.face_min = faceMin;
      if (random.chance(0.3)) params.face_max = faceMin * random.pick([2, 3, 5, 10]);
    } else if (random.chance(0.1)) params.face_max = random.pick([500, 1000, 2000]);
    if (random.chance(0.25)) params.tax_year = random.chance(0.8) ? [random.pick(recent)] : recent.slice(-2);
    const text = random.next();
    if (text < 0.12) params.query = random.pick(v.surnames);
    else if (text < 0.18) params.query = random.pick(v.streets);
    if (random.chance(0.08)) params.holder = random.pick(v.holders);
    const narrow = params.holder !== undefined || params.query !== undefined || (faceMin ?? 0) >= 5000;
    if (statewide && !narrow) {
      params.face_min = random.pick(STATEWIDE_FACE_MINS);
      delete params.face_max;
    }
    out.push({ name: `bench search ${i + 1}`, params });
  }
  return out;
}
