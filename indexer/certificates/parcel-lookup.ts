import type { Client } from '@opensearch-project/opensearch';
import { normalizeKey } from '../../services/domain/ids.ts';
import type { ParcelFacts } from '../../services/domain/parcel-facts.ts';
import type { RawRow } from '../adapters/types.ts';
import { countyParcelsVersion, parcelsOf } from '../parcels/county-parcels.ts';

/**
 * The parcel rows a certificate file's documents take their facts from, fetched as pass 1 reads
 * the file: rows are held back in batches of BATCH, one mget fetches the batch's parcels (the next
 * batch's in flight while this one is built), and the builder looks each row's parcel up in the
 * batch's map. Memory stays one batch's parcels whatever the county's roll; a county with no
 * parcel rows costs one count and no mget (every first load before a parcel file).
 *
 * Measured on the shared 2-core node for 100,000 parcels of one county: reading the whole county
 * into a map took 6.0 s and about 240 bytes a parcel (240 MB for a county of a million parcels,
 * over the worker's 320 MB heap); an mget per 1,000 took 11.6 s when every row has a parcel, and
 * the prefetch hides it behind building the rows: a re-load of 20,000 certificates that all have
 * a parcel row took 6.3 s, against 6.6 s for the same file before the county had parcels.
 */

const BATCH = 1000;

export interface ParcelLookup {
  /** The county's parcel version (countyParcelsVersion) when the file began; undefined before rows() starts. */
  version(): string | undefined;
  /** The file's rows, each batch's parcels fetched before its rows are handed on. */
  rows(source: AsyncIterable<RawRow>, parcelIdOf: (row: RawRow) => string | null): AsyncGenerator<RawRow>;
  /** The parcel row of a normalized parcel id of the batch being built. */
  get(parcelIdNormalized: string): ParcelFacts | undefined;
}

export function parcelLookup(client: Client, prefix: string, countySlug: string): ParcelLookup {
  let version: string | undefined;
  let current = new Map<string, ParcelFacts>();
  const none = new Map<string, ParcelFacts>();

  return {
    version: () => version,
    get: (id) => current.get(id),
    async *rows(source, parcelIdOf) {
      // Asked while the file is already being read, never awaited before it: a file stream that
      // fails meanwhile (a cut-off gzip) must find the reader's listeners attached.
      const known = countyParcelsVersion(client, prefix, countySlug).then((v) => {
        version = v;
        return v;
      });
      // Awaited at the end (and by each batch's fetch); an engine refusal that comes back before the
      // first batch is cut must fail this file's read there, not count as unhandled and end the process.
      known.catch(() => undefined);
      const fetch = (ids: string[]) => {
        const p = known.then((v) => (v === '0:' || ids.length === 0 ? none : parcelsOf(client, prefix, countySlug, ids)));
        // Awaited when its batch is handed on; until then a failure must not count as unhandled.
        p.catch(() => undefined);
        return p;
      };
      let batch: RawRow[] = [];
      let ids: string[] = [];
      let ahead: { rows: RawRow[]; parcels: Promise<Map<string, ParcelFacts>> } | undefined;
      const handOn = async function* (held: NonNullable<typeof ahead>) {
        current = await held.parcels;
        yield* held.rows;
      };
      for await (const row of source) {
        batch.push(row);
        const id = parcelIdOf(row);
        if (id !== null) ids.push(normalizeKey(id));
        if (batch.length === BATCH) {
          const next = { rows: batch, parcels: fetch(ids) };
          batch = [];
          ids = [];
          if (ahead) yield* handOn(ahead);
          ahead = next;
        }
      }
      const last = batch.length > 0 ? { rows: batch, parcels: fetch(ids) } : undefined;
      if (ahead) yield* handOn(ahead);
      if (last) yield* handOn(last);
      await known;
      current = none;
    },
  };
}
