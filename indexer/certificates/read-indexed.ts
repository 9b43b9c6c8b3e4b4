import type { Client } from '@opensearch-project/opensearch';
import type { CertificateDocument } from '../../services/domain/certificate-row.ts';
import type { SpooledDoc } from '../load/two-pass-load.ts';

/**
 * The one read of the index between the passes, shared by the conflict check
 * (parcel-conflicts.ts) and the change feed (certificate-feed.ts), so a re-ingest
 * reads each of its certificates once, not once per check.
 *
 * Cost: one count per file, which answers a first load of a county and tax year on its own
 * (nothing of it is indexed, so nothing is read per row: the bulk of every large load); else
 * one mget per 1,000 rows, each fetching only the fields asked for, the next one in flight
 * while the current one is compared.
 */

const MGET_CHUNK = 1000;

/** A certificate of the file beside the indexed document with its id (undefined: new). */
export interface IndexedPair {
  id: string;
  /** The document the file brings, as spooled (every stored field). */
  incoming: CertificateDocument;
  /** The indexed document's fields that were asked for. */
  indexed: Partial<CertificateDocument> | undefined;
}

/** Certificates of one county and tax year in the index. */
export async function countCountyYear(client: Client, alias: string, countySlug: string, taxYear: number): Promise<number> {
  const res = await client.count({
    index: alias,
    body: { query: { bool: { filter: [{ term: { county_slug: countySlug } }, { term: { tax_year: taxYear } }] } } },
  });
  return res.body.count;
}

/**
 * The file's certificates in chunks, each beside its indexed version (only `fields` of it).
 * The next chunk's mget is in flight while the caller works on this one, so the read costs
 * about one round trip per chunk whatever the caller does with it (diffing, staging).
 */
export async function* indexedPairs(
  client: Client,
  alias: string,
  docs: AsyncIterable<SpooledDoc>,
  fields: readonly string[],
): AsyncIterable<IndexedPair[]> {
  const pair = async (chunk: { id: string; incoming: CertificateDocument }[]): Promise<IndexedPair[]> => {
    const res = await client.mget({ index: alias, _source_includes: fields.join(','), body: { ids: chunk.map((d) => d.id) } });
    const found = new Map<string, Partial<CertificateDocument>>();
    for (const d of (res.body as { docs: { _id: string; found?: boolean; _source?: Partial<CertificateDocument> }[] }).docs)
      if (d.found && d._source) found.set(d._id, d._source);
    return chunk.map((d) => ({ ...d, indexed: found.get(d.id) }));
  };
  let chunk: { id: string; incoming: CertificateDocument }[] = [];
  let ahead: Promise<IndexedPair[]> | undefined;
  const send = () => {
    const next = pair(chunk);
    // Awaited below; until then a failure must not count as unhandled.
    next.catch(() => undefined);
    chunk = [];
    return next;
  };
  for await (const doc of docs) {
    chunk.push({ id: doc.id, incoming: JSON.parse(doc.json) as CertificateDocument });
    if (chunk.length === MGET_CHUNK) {
      const next = send();
      if (ahead) yield await ahead;
      ahead = next;
    }
  }
  const last = chunk.length > 0 ? send() : undefined;
  if (ahead) yield await ahead;
  if (last) yield await last;
}
