import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../../services/domain/datasets.ts';
import type { ParcelFacts } from '../../services/domain/parcel-facts.ts';
import { type ParcelRecord, parcelDocId, parcelFactsOf } from '../../services/domain/parcel-record.ts';
import { errorInfo } from '../indices/create.ts';

/**
 * Reads of a county's parcel rows for the two joins: its version (has anything loaded since?) and
 * the rows of a batch of parcel ids (one mget), which certificate ingest
 * (certificates/parcel-lookup.ts) and the parcel file's join (join-certificates.ts) both use.
 */

/** The parcel fields read for the join (what parcelFactsOf needs). */
export const PARCEL_FACT_SOURCE = [
  'parcel_id_normalized',
  'assessment_year',
  'just_value',
  'land_sqft',
  'use_code',
  'homestead',
  'situs_address',
  'situs_city',
  'situs_zip',
  'location',
] as const;

export type ParcelSource = Pick<ParcelRecord, (typeof PARCEL_FACT_SOURCE)[number]>;

const countyQuery = (countySlug: string) => ({ bool: { filter: [{ term: { county_slug: countySlug } }] } });

/** A missing parcels index (a stack from before the parcel layer) holds no parcels. */
async function orNone<T>(read: () => Promise<T>, none: T): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (errorInfo(err).status === 404) return none;
    throw err;
  }
}

/**
 * A fingerprint of the county's searchable parcel rows: their count and latest ingest time. Every
 * parcel load stamps its rows with its own time, so a load between two reads changes it.
 */
export async function countyParcelsVersion(client: Client, prefix: string, countySlug: string): Promise<string> {
  return orNone(async () => {
    const res = await client.search({
      index: aliasName(prefix, 'parcels'),
      body: {
        size: 0,
        track_total_hits: true,
        query: countyQuery(countySlug),
        aggs: { latest: { max: { field: 'ingested_at' } } },
      } as never,
    });
    const body = res.body as unknown as { hits: { total: { value: number } }; aggregations: { latest: { value: number | null } } };
    return `${body.hits.total.value}:${body.aggregations.latest.value ?? ''}`;
  }, '0:');
}

/** The parcel rows of these normalized parcel ids of one county (one mget), for a batch of certificates. */
export async function parcelsOf(
  client: Client,
  prefix: string,
  countySlug: string,
  parcelIds: readonly string[],
): Promise<Map<string, ParcelFacts>> {
  const byDoc = await parcelRows(
    client,
    prefix,
    parcelIds.map((p) => parcelDocId(countySlug, p)),
  );
  return new Map([...byDoc.values()].map((p) => [p.parcel_id_normalized, parcelFactsOf(p)]));
}

/** The parcel rows of these parcel document ids (`county:parcel`, any counties), by id; one mget. */
export async function parcelRows(client: Client, prefix: string, ids: readonly string[]): Promise<Map<string, ParcelSource>> {
  const out = new Map<string, ParcelSource>();
  if (ids.length === 0) return out;
  const res = await client.mget({
    index: aliasName(prefix, 'parcels'),
    _source_includes: PARCEL_FACT_SOURCE.join(','),
    body: { ids: [...new Set(ids)] },
  });
  for (const d of (res.body as { docs: { _id: string; found?: boolean; _source?: ParcelSource }[] }).docs)
    if (d.found && d._source) out.set(d._id, d._source);
  return out;
}
