import type { Client } from '@opensearch-project/opensearch';
import { aliasName } from '../../services/domain/datasets.ts';
import type { ParcelFacts } from '../../services/domain/parcel-facts.ts';
import { type ParcelRecord, parcelDocId, parcelFactsOf } from '../../services/domain/parcel-record.ts';
import { errorInfo } from '../indices/create.ts';

/**
 * The parcel rows a certificate file's documents take their facts from: one read of the
 * county's parcels per job (search_after pages of PAGE), held in a Map by normalized parcel id, so
 * building each certificate costs a Map lookup and no request. Measured against an mget per bulk
 * batch: the builder runs synchronously per row in pass 1, so an mget would have to rewrite the
 * spool between the passes; one read is a few requests per 10,000 parcels and the Map costs
 * about 250 bytes a parcel (about 250 MB for a county of a million parcels, the largest roll).
 */

const PAGE = 5000;

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

export interface CountyParcels {
  /** What the county's parcel rows were when read (countyParcelsVersion). */
  version: string;
  get(parcelIdNormalized: string): ParcelFacts | undefined;
  size: number;
}

type ParcelSource = Pick<ParcelRecord, (typeof PARCEL_FACT_SOURCE)[number]>;

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

/** Every parcel row of a county, by normalized parcel id. */
export async function readCountyParcels(client: Client, prefix: string, countySlug: string): Promise<CountyParcels> {
  const version = await countyParcelsVersion(client, prefix, countySlug);
  const byParcel = new Map<string, ParcelFacts>();
  if (version !== '0:') {
    let after: unknown[] | undefined;
    for (;;) {
      const res = await client.search({
        index: aliasName(prefix, 'parcels'),
        body: {
          size: PAGE,
          query: countyQuery(countySlug),
          _source: [...PARCEL_FACT_SOURCE],
          sort: [{ id: 'asc' }],
          ...(after ? { search_after: after } : {}),
        } as never,
      });
      const hits = res.body.hits.hits as unknown as { _source: ParcelSource; sort: unknown[] }[];
      for (const h of hits) byParcel.set(h._source.parcel_id_normalized, parcelFactsOf(h._source));
      if (hits.length < PAGE) break;
      after = hits.at(-1)!.sort;
    }
  }
  return { version, get: (id) => byParcel.get(id), size: byParcel.size };
}

/** The parcel rows of these normalized parcel ids of one county (one mget), for a batch of certificates. */
export async function parcelsOf(
  client: Client,
  prefix: string,
  countySlug: string,
  parcelIds: readonly string[],
): Promise<Map<string, ParcelFacts>> {
  const out = new Map<string, ParcelFacts>();
  if (parcelIds.length === 0) return out;
  const res = await client.mget({
    index: aliasName(prefix, 'parcels'),
    _source_includes: PARCEL_FACT_SOURCE.join(','),
    body: { ids: [...new Set(parcelIds)].map((p) => parcelDocId(countySlug, p)) },
  });
  for (const d of (res.body as { docs: { found?: boolean; _source?: ParcelSource }[] }).docs)
    if (d.found && d._source) out.set(d._source.parcel_id_normalized, parcelFactsOf(d._source));
  return out;
}
