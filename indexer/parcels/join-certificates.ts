import type { Client } from '@opensearch-project/opensearch';
import { certificateParcelFields } from '../../services/domain/certificate-parcel-fields.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import type { CertificateParcelFields } from '../../services/domain/parcel-facts.ts';
import { BulkRequestError } from '../errors.ts';
import { parcelDocId, parcelFactsOf } from '../../services/domain/parcel-record.ts';
import { parcelRows } from './county-parcels.ts';

/**
 * The second join of the parcel layer: once a county's parcel rows are searchable, each
 * certificate of the county whose parcel fields differ from what its parcel row (or, without one,
 * its own address) gives is rewritten with those fields changed and nothing else. None of
 * them is a public field (the certificate row of the spec does not show them), so no certificate
 * event and no saved-search event is recorded, and ingested_at stays the certificate file's.
 * Parcel rows are only ever added or replaced, so a certificate never loses a location here;
 * one with no parcel row keeps none. Idempotent: a second run finds nothing to update.
 *
 * Cost: one search_after page of PAGE certificates and one mget of their parcels per page, and a
 * _bulk of the changed ones; an unchanged county writes nothing. The changed ones are sent whole
 * (`index` with the page's own copy, guarded by its sequence number) rather than as partial
 * updates: a partial update makes the engine fetch and re-parse each stored document first,
 * which was most of the join's cost, while the page already holds that copy. A certificate file
 * that rewrote one meanwhile fails the guard, and only those few are sent again as partial
 * updates, applied by the engine to the fresh copy.
 */

const PAGE = 2000;

/** The whole stored certificate, read because a changed one is sent back whole. */
type Indexed = Partial<CertificateParcelFields> & {
  county_slug: string;
  parcel_id_normalized: string;
  owner_name?: string;
  site_address_full?: string;
} & Record<string, unknown>;

export interface Hit {
  _id: string;
  _seq_no: number;
  _primary_term: number;
  _source: Indexed;
  sort: unknown[];
}

type BulkItems = Record<string, { status?: number; error?: { type?: string } }>[];

/** Which certificates to join: one county's (a parcel file's load), or every one (a reindex onto a new mapping). */
export interface JoinScope {
  countySlug?: string;
  /** The certificates index to read and update; default the alias (a reindex names its new index). */
  index?: string;
  /** How the certificates index is refreshed; the worker's waits between two sends (load/lane.ts). Default: at once. */
  refresh?: () => Promise<unknown>;
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

/** The failures of a _bulk other than a certificate deleted meanwhile (nothing to update). */
function failures(items: BulkItems): { index: number; type: string }[] {
  const out: { index: number; type: string }[] = [];
  items.forEach((item, index) => {
    const type = Object.values(item)[0]?.error?.type;
    if (type && type !== 'document_missing_exception') out.push({ index, type });
  });
  return out;
}

async function sendBulk(client: Client, index: string, body: object[]): Promise<BulkItems> {
  const res = await client.bulk({ index, body: body as never, filter_path: 'items.*.error' });
  return (res.body as { items?: BulkItems }).items ?? [];
}

/** Writes one page's changed certificates: whole, guarded; the few rewritten meanwhile as partial updates. */
export async function writeChanges(client: Client, index: string, changes: { hit: Hit; change: Partial<CertificateParcelFields> }[]) {
  const body: object[] = [];
  for (const { hit, change } of changes)
    body.push({ index: { _id: hit._id, if_seq_no: hit._seq_no, if_primary_term: hit._primary_term } }, { ...hit._source, ...change });
  const failed = failures(await sendBulk(client, index, body));
  const conflicts = failed.filter((f) => f.type === 'version_conflict_engine_exception');
  if (conflicts.length < failed.length)
    throw new BulkRequestError('unavailable', `parcel facts onto ${failed.length - conflicts.length} certificates of ${index} failed`);
  if (conflicts.length === 0) return;
  const retry: object[] = [];
  for (const { index: at } of conflicts)
    retry.push({ update: { _id: changes[at]!.hit._id, retry_on_conflict: 3 } }, { doc: changes[at]!.change });
  const still = failures(await sendBulk(client, index, retry));
  // Anything left is the queue's to retry: the join is idempotent.
  if (still.length > 0) throw new BulkRequestError('unavailable', `parcel facts onto ${still.length} certificates of ${index} failed`);
}

export async function joinParcelsOntoCertificates(client: Client, prefix: string, scope: JoinScope): Promise<{ updated: number }> {
  const alias = scope.index ?? aliasName(prefix, 'certificates');
  const { countySlug } = scope;
  const refresh = scope.refresh ?? (() => client.indices.refresh({ index: alias }));
  // Certificates a concurrent file sent but the refresh group has not yet refreshed are read too.
  await refresh();
  let after: unknown[] | undefined;
  let updated = 0;
  for (;;) {
    const res = await client.search({
      index: alias,
      body: {
        size: PAGE,
        query: countySlug ? { bool: { filter: [{ term: { county_slug: countySlug } }] } } : { match_all: {} },
        seq_no_primary_term: true,
        sort: [{ id: 'asc' }],
        ...(after ? { search_after: after } : {}),
      } as never,
    });
    const hits = res.body.hits.hits as unknown as Hit[];
    if (hits.length === 0) break;
    const docId = (c: Indexed) => parcelDocId(c.county_slug, c.parcel_id_normalized);
    const parcels = await parcelRows(
      client,
      prefix,
      hits.map((h) => docId(h._source)),
    );
    const changes: { hit: Hit; change: Partial<CertificateParcelFields> }[] = [];
    for (const hit of hits) {
      const parcel = parcels.get(docId(hit._source));
      const change = differing(hit._source, certificateParcelFields(hit._source, parcel && parcelFactsOf(parcel)));
      if (change) changes.push({ hit, change });
    }
    if (changes.length > 0) {
      await writeChanges(client, alias, changes);
      updated += changes.length;
    }
    if (hits.length < PAGE) break;
    after = hits.at(-1)!.sort;
  }
  if (updated > 0) await refresh();
  return { updated };
}
