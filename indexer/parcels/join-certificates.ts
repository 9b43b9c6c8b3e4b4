import type { Client } from '@opensearch-project/opensearch';
import { certificateParcelFields } from '../../services/domain/certificate-parcel-fields.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import { type CertificateParcelFields, PARCEL_DOCUMENT_FIELDS } from '../../services/domain/parcel-facts.ts';
import { BulkRequestError } from '../errors.ts';
import { parcelDocId, parcelFactsOf } from '../../services/domain/parcel-record.ts';
import { parcelRows } from './county-parcels.ts';

/**
 * The second join of the parcel layer: once a county's parcel rows are searchable, each
 * certificate of the county whose parcel fields differ from what its parcel row (or, without one,
 * its own address) gives is updated in place with a partial update of those fields only. None of
 * them is a public field (the certificate row of the spec does not show them), so no certificate
 * event and no saved-search event is recorded, and ingested_at stays the certificate file's.
 * Parcel rows are only ever added or replaced, so a certificate never loses a location here;
 * one with no parcel row keeps none. Idempotent: a second run finds nothing to update.
 *
 * Cost: one search_after page of PAGE certificates (only the fields compared) and one mget of
 * their parcels per page, and a _bulk of the changed ones; an unchanged county writes nothing.
 */

const PAGE = 2000;

/** The certificate fields the join reads: its keys and what it may write. */
/** What the join reads of a certificate: its keys, what its parcel fields derive from, and those fields. */
const SOURCE = ['county_slug', 'parcel_id_normalized', 'owner_name', 'site_address_full', 'owner_type', ...PARCEL_DOCUMENT_FIELDS];

type Indexed = Partial<CertificateParcelFields> & {
  county_slug: string;
  parcel_id_normalized: string;
  owner_name?: string;
  site_address_full?: string;
};

/** Which certificates to join: one county's (a parcel file's load), or every one (a reindex onto a new mapping). */
export interface JoinScope {
  countySlug?: string;
  /** The certificates index to read and update; default the alias (a reindex names its new index). */
  index?: string;
}

function same(a: unknown, b: unknown): boolean {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const pa = a as { lat: number; lon: number };
    const pb = b as { lat: number; lon: number };
    return pa.lat === pb.lat && pa.lon === pb.lon;
  }
  return a === b;
}

/** The fields of `want` the indexed document does not already hold as they are. */
function differing(indexed: Indexed, want: CertificateParcelFields): Partial<CertificateParcelFields> | null {
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(want))
    if (!same(indexed[key as keyof Indexed] ?? null, value)) {
      out[key] = value;
      any = true;
    }
  return any ? (out as Partial<CertificateParcelFields>) : null;
}

export async function joinParcelsOntoCertificates(client: Client, prefix: string, scope: JoinScope): Promise<{ updated: number }> {
  const alias = scope.index ?? aliasName(prefix, 'certificates');
  const { countySlug } = scope;
  // Certificates a concurrent file sent but the refresh group has not yet refreshed are read too.
  await client.indices.refresh({ index: alias });
  let after: unknown[] | undefined;
  let updated = 0;
  for (;;) {
    const res = await client.search({
      index: alias,
      body: {
        size: PAGE,
        query: countySlug ? { bool: { filter: [{ term: { county_slug: countySlug } }] } } : { match_all: {} },
        _source: SOURCE,
        sort: [{ id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      } as never,
    });
    const hits = res.body.hits.hits as unknown as { _id: string; _source: Indexed; sort: unknown[] }[];
    if (hits.length === 0) break;
    const docId = (c: Indexed) => parcelDocId(c.county_slug, c.parcel_id_normalized);
    const parcels = await parcelRows(
      client,
      prefix,
      hits.map((h) => docId(h._source)),
    );
    const body: object[] = [];
    for (const h of hits) {
      const parcel = parcels.get(docId(h._source));
      const change = differing(h._source, certificateParcelFields(h._source, parcel && parcelFactsOf(parcel)));
      // A certificate file writing the same document meanwhile is a version conflict: retried on the fresh copy.
      if (change) body.push({ update: { _id: h._id, retry_on_conflict: 3 } }, { doc: change });
    }
    if (body.length > 0) {
      const bulk = await client.bulk({ index: alias, body: body as never, filter_path: 'errors,items.*.error' });
      // A certificate deleted meanwhile (404) has nothing to update; anything else is the queue's to retry.
      const items = (bulk.body as { errors: boolean; items?: Record<string, { error?: { type?: string } }>[] }).items ?? [];
      const failed = items.filter((i) => Object.values(i)[0]?.error && Object.values(i)[0]?.error?.type !== 'document_missing_exception');
      if (failed.length > 0)
        throw new BulkRequestError('unavailable', `parcel facts onto ${failed.length} certificates of ${alias} failed`);
      updated += body.length / 2;
    }
    if (hits.length < PAGE) break;
    after = hits.at(-1)!.sort;
  }
  if (updated > 0) await client.indices.refresh({ index: alias });
  return { updated };
}
