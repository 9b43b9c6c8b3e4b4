import { UNSOLD_STATUSES } from '../../domain/sold-to-bidder.ts';
import {
  addHist,
  addToHist,
  compactHist,
  emptyHist,
  type GroupHist,
  type GroupedCertificate,
  histEmpty,
  histMedian,
  histName,
} from './group-hist.ts';

/**
 * Rollups: exact pre-added figures of the certificates, kept as documents of the certificates
 * index itself so that one refresh shows a file's certificates and its rollups together
 * (the worker refreshes only between two sends: indexer/load/lane.ts). Pure: no client.
 *
 * Two kinds, each one document per key with a count (and cents or day counts):
 *  - rates: (county, tax year, vendor, winning rate, class, cancelled, sale day), with the face
 *    sum in cents. class is how the bid-rate analytics split a certificate: struck to the
 *    county, sold to a bidder (sold-to-bidder.ts), or other (still waiting for the sale).
 *    Serves /analytics/bid-rates, the expected yield's rate counts and the first sale's day.
 *  - redemptions: the redemption cohort only (sold to a bidder, not cancelled), by (county,
 *    tax year, vendor, sale day, month redeemed or none), with the redemptions of each day of
 *    that month (d1..d31), so a curve drawn as of any day is exact. Serves the redemption curve
 *    and the expected yield.
 *  - groups (per holder group and county) and groups_all (per holder group, whole index): the
 *    group's certificates, face and the additive counts of group-hist.ts, with the figures the
 *    holder-group orders sort on (median rate, display name) and the member spellings a name
 *    match searches, written from those counts. Serves /analytics/holders.
 * Markers beside them: `built` (this index's rollups are kept: an index loaded some other way
 * has none and every read scans) and `stale` (a county and tax year whose rollups could not be
 * kept exact, e.g. a send that failed half way; reads of a scope holding one scan until a later
 * load rebuilds them).
 */

export type RollupKind = 'rates' | 'redemptions' | 'groups' | 'groups_all' | 'stale' | typeof BUILT_KIND;

/**
 * The built marker's kind names the generation of rollups this code keeps (2: with holder
 * groups). An index an older generation built carries only its own marker, so this code neither
 * reads nor adds to its rollups (every answer scans, every load sends certificates alone) until
 * taxcert reindex builds the current generation: a load never writes a rollup the index's
 * mapping does not know.
 */
export const BUILT_KIND = 'built_2';
/** Which rollups a tally adds: the market's (rates, redemptions, per county and tax year), the groups', or both. */
export type RollupParts = 'all' | 'market' | 'groups';
export type RollupClass = 'struck' | 'sold' | 'other';

/** The certificate fields the market rollups are made of. */
export const MARKET_FIELDS = [
  'county_slug',
  'tax_year',
  'vendor',
  'interest_rate',
  'face_amount',
  'struck_to_county',
  'status',
  'sale_date',
  'redeemed_date',
] as const;

/** The certificate fields the group rollups add (holder_name.raw in the index: the spelling as listed). */
export const GROUP_FIELDS = ['holder_group_id', 'holder_group_name', 'holder_name', 'county_held'] as const;

/** Every field rollups are made of: what a re-ingest reads of the certificates it replaces. */
export const ROLLUP_SOURCE_FIELDS = [...MARKET_FIELDS, ...GROUP_FIELDS] as const;

export interface RolledCertificate extends GroupedCertificate {
  holder_group_id?: string | null;
  county_slug: string;
  tax_year: number;
  vendor?: string | null;
  interest_rate?: number | null;
  face_amount?: number | null;
  struck_to_county?: boolean | null;
  status?: string | null;
  sale_date?: string | null;
  redeemed_date?: string | null;
}

/** The key fields of one rollup document (absent: the certificates had no value). */
export interface RollupKey {
  kind: RollupKind;
  county_slug?: string;
  tax_year?: number;
  vendor?: string;
  interest_rate?: number;
  class?: RollupClass;
  cancelled?: boolean;
  sale_date?: string;
  redeemed_month?: string;
  group_id?: string;
}

export interface RollupEntry {
  key: RollupKey;
  count: number;
  faceCents: number;
  /** Redemptions on each day (index 0: the 1st) of redeemed_month; redemptions kind only. */
  days?: number[];
  /** The group's counts; group kinds only. */
  hist?: GroupHist;
}

/** The field every rollup document has and no certificate has: the aliases split the index on it. */
export const ROLLUP_KIND_FIELD = 'rollup.kind';

const UNSOLD: ReadonlySet<string> = new Set(UNSOLD_STATUSES);

export function rollupClass(c: Pick<RolledCertificate, 'struck_to_county' | 'status'>): RollupClass {
  if (c.struck_to_county === true) return 'struck';
  return c.status != null && UNSOLD.has(c.status) ? 'other' : 'sold';
}

/** Whole cents of a face: the scaled_float (factor 100) stores the same rounding. */
export const faceCents = (face: number | null | undefined) => (face == null ? 0 : Math.round(face * 100));

const idPart = (x: unknown) => (x === undefined ? '~' : String(x));

/**
 * The document id of a key: its fields in a fixed order, so the same key always lands on the same
 * document. Made for every certificate a load counts, three times, hence one template string.
 */
export function rollupId(k: RollupKey): string {
  const id = `rollup|${k.kind}|${idPart(k.county_slug)}|${idPart(k.tax_year)}|${idPart(k.vendor)}|${idPart(k.interest_rate)}|${idPart(k.class)}|${idPart(k.cancelled)}|${idPart(k.sale_date)}|${idPart(k.redeemed_month)}`;
  return k.group_id === undefined ? id : `${id}|${k.group_id}`;
}

/** A marker of a county and tax year (stale) or of the whole index (built). */
export function markerKey(kind: 'stale' | 'built', countySlug?: string, taxYear?: number): RollupKey {
  return kind === 'built' ? { kind: BUILT_KIND } : { kind, county_slug: countySlug, tax_year: taxYear };
}

const present = <T>(x: T | null | undefined): T | undefined => (x === null ? undefined : x);

/**
 * Sums of certificates by rollup key. A certificate is added with sign 1 and taken back with
 * -1; `times` adds that many equal certificates at once (a rebuild's buckets), with faceSum
 * their face total in cents.
 */
export class RollupTally {
  readonly entries = new Map<string, RollupEntry>();

  add(c: RolledCertificate, sign: 1 | -1 = 1, times = 1, faceSum = faceCents(c.face_amount) * times, parts: RollupParts = 'all'): void {
    if (parts !== 'market') this.addGroups(c, sign * times, sign * faceSum);
    if (parts !== 'groups') this.addMarket(c, sign, times, faceSum);
  }

  /**
   * The certificate's group in its county; none without a group. The whole-index rollups are
   * the county ones added up (withWholeIndexGroups), made only when written: a file in the
   * worker holds half as many sums while it waits for its send.
   */
  private addGroups(c: RolledCertificate, times: number, cents: number): void {
    const group = present(c.holder_group_id);
    if (group === undefined) return;
    const entry = this.bump({ kind: 'groups', group_id: group, county_slug: c.county_slug }, times, cents);
    entry.hist ??= emptyHist();
    addToHist(entry.hist, c, times, cents);
  }

  private addMarket(c: RolledCertificate, sign: 1 | -1, times: number, faceSum: number): void {
    const cls = rollupClass(c);
    const cancelled = c.status === 'cancelled';
    const common = { county_slug: c.county_slug, tax_year: c.tax_year, vendor: present(c.vendor), sale_date: present(c.sale_date) };
    this.bump({ kind: 'rates', ...common, interest_rate: present(c.interest_rate), class: cls, cancelled }, sign * times, sign * faceSum);
    if (cls !== 'sold' || cancelled) return;
    const redeemed = present(c.redeemed_date);
    const entry = this.bump({ kind: 'redemptions', ...common, redeemed_month: redeemed?.slice(0, 7) }, sign * times, 0);
    if (redeemed !== undefined) {
      entry.days ??= new Array<number>(31).fill(0);
      entry.days[Number(redeemed.slice(8, 10)) - 1]! += sign * times;
    }
  }

  /** Adds every entry of another tally. */
  merge(other: RollupTally): void {
    for (const e of other.entries.values()) this.addEntry(e);
  }

  /**
   * Adds every entry of another tally, taking over the entries this one lacks instead of copying
   * them: `other` must not be added to or read after.
   */
  absorb(other: RollupTally): void {
    for (const [id, e] of other.entries) {
      if (this.entries.has(id)) this.addEntry(e);
      else this.entries.set(id, e);
    }
    other.entries.clear();
  }

  /** Adds one entry's sums under its key. */
  addEntry(e: RollupEntry): void {
    const entry = this.bump(e.key, e.count, e.faceCents);
    if (e.days) {
      entry.days ??= new Array<number>(31).fill(0);
      for (let d = 0; d < 31; d++) entry.days[d]! += e.days[d]!;
    }
    if (e.hist) {
      entry.hist ??= emptyHist();
      addHist(entry.hist, e.hist);
    }
  }

  private bump(key: RollupKey, count: number, cents: number): RollupEntry {
    const id = rollupId(key);
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { key, count: 0, faceCents: 0 };
      this.entries.set(id, entry);
    }
    entry.count += count;
    entry.faceCents += cents;
    return entry;
  }
}

/** The whole-index group rollups a tally's county ones add up to (and nothing else). */
export function wholeIndexGroups(t: RollupTally): RollupTally {
  const out = new RollupTally();
  for (const e of t.entries.values())
    if (e.key.kind === 'groups') out.addEntry({ ...e, key: { kind: 'groups_all', group_id: e.key.group_id } });
  return out;
}

/** The tally with, beside its groups' county rollups, the whole-index ones they add up to. */
export function withWholeIndexGroups(t: RollupTally): RollupTally {
  const out = new RollupTally();
  out.merge(t);
  out.merge(wholeIndexGroups(t));
  return out;
}

/** True when the entry adds nothing (a change and its undoing). */
export function isEmpty(e: RollupEntry): boolean {
  return e.count === 0 && e.faceCents === 0 && (e.days?.every((d) => d === 0) ?? true) && (e.hist ? histEmpty(e.hist) : true);
}

/** The indexed form of an entry (or a marker, count 0). */
export function rollupDocument(e: RollupEntry): { rollup: Record<string, unknown> } {
  const rollup: Record<string, unknown> = { ...e.key, count: e.count, face_cents: e.faceCents };
  if (e.days) rollup.day = Object.fromEntries(e.days.map((n, i) => [`d${i + 1}`, n]));
  if (e.hist) {
    const hist = compactHist(e.hist);
    // What the holder-group orders sort on and a member-name match searches, from the counts.
    rollup.hist = hist;
    rollup.median_rate = histMedian(hist);
    rollup.name_key = histName(hist).toUpperCase();
    rollup.members = Object.keys(hist.members);
  }
  return { rollup };
}

/** An indexed rollup document back to an entry. */
export function entryOf(doc: { rollup: Record<string, unknown> }): RollupEntry {
  const {
    count,
    face_cents,
    day,
    hist,
    median_rate: _median,
    name_key: _name,
    members: _members,
    ...key
  } = doc.rollup as Record<string, unknown> & {
    count: number;
    face_cents: number;
    day?: Record<string, number>;
    hist?: GroupHist;
  };
  const entry: RollupEntry = { key: key as unknown as RollupKey, count, faceCents: face_cents };
  if (day) entry.days = Array.from({ length: 31 }, (_, i) => day[`d${i + 1}`] ?? 0);
  // The document's own counts (parsed for this call), with any map an older document left out.
  if (hist) entry.hist = { ...emptyHist(), ...hist };
  return entry;
}
