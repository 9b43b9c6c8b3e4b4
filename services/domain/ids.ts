import { hash } from 'node:crypto';

/**
 * Ids come from natural keys, so ingesting the same file twice (or retrying a
 * killed job) writes the same documents instead of new ones.
 */

function digest(key: string): string {
  // One-shot: a Hash object per row cost twice as much, on the hottest path of an ingest.
  return hash('sha256', key, 'hex').slice(0, 20);
}

/**
 * How many hex digits of an id its order twin keeps: 52 bits, exact in a double on both
 * sides of the JSON, and enough to tell apart all but about one pair of ten million ids.
 */
export const ID_ORDER_DIGITS = 13;

/**
 * The order twin of an id (`<prefix>_<hex digits>`): its first ID_ORDER_DIGITS hex digits
 * as a whole number. Along ids of one prefix it never decreases, so a deep page can cut
 * and count the id order on a long instead of a keyword (services/engine/paging/string-cuts.ts).
 */
export function idOrder(id: string): number {
  const start = id.indexOf('_') + 1;
  return Number.parseInt(id.slice(start, start + ID_ORDER_DIGITS), 16);
}

/** idOrder in painless, for documents copied by _reindex from an index without the twin. */
export const ID_ORDER_PAINLESS = `if (ctx._source.id_order == null) { String id = ctx._source.id; int s = id.indexOf('_') + 1; ctx._source.id_order = Long.parseLong(id.substring(s, s + ${ID_ORDER_DIGITS}), 16); }`;

/** Parcel ids and certificate numbers match without punctuation: 12-34-56 equals 123456. */
export function normalizeKey(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Holder names as people type them: case, punctuation and spacing do not make a new holder. */
export function normalizeHolderName(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function certificateId(countySlug: string, taxYear: number, certificateNumber: string): string {
  return `cert_${digest(`${countySlug}|${taxYear}|${normalizeKey(certificateNumber)}`)}`;
}

/** The holder id of a name: the digest of its normalized form. */
export function holderId(holderName: string): string {
  return `hld_${digest(normalizeHolderName(holderName))}`;
}

export type HolderIds = (holderName: string) => string;

const HOLDER_CACHE_MAX = 50_000;

/**
 * holderId with a memory, for the ingest hot path: a few thousand holders own
 * millions of certificates, so the digest of each name is remembered. The map is
 * dropped whole when it grows past its bound, which keeps memory flat whatever the
 * file. One per job (built with the job's build context), never shared module state.
 */
export function createHolderIds(max = HOLDER_CACHE_MAX): HolderIds {
  const ids = new Map<string, string>();
  return (holderName) => {
    let id = ids.get(holderName);
    if (id === undefined) {
      id = holderId(holderName);
      if (ids.size >= max) ids.clear();
      ids.set(ownCopy(holderName), id);
    }
    return id;
  };
}

/**
 * A string that shares no memory with the one given. A field cut from a parser's
 * chunk is a view into the whole 1 MB chunk, and a cache keyed by such views kept
 * every chunk they came from alive (the worker's heap grew with N).
 */
function ownCopy(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

export function saleId(countySlug: string, taxYear: number): string {
  return `csale_${digest(`${countySlug}|${taxYear}`)}`;
}
