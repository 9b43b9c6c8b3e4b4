import type { Client } from '@opensearch-project/opensearch';
import { CERTIFICATES_ONLY } from '../../services/engine/dataset-aliases.ts';
import {
  markerKey,
  ROLLUP_KIND_FIELD,
  ROLLUP_SOURCE_FIELDS,
  type RolledCertificate,
  RollupTally,
  rollupDocument,
  rollupId,
} from '../../services/engine/rollups/rollup-docs.ts';
import { BulkRequestError } from '../errors.ts';

/**
 * Rollups made again from the certificates themselves: for a county and tax year whose rollups
 * a load could not keep by difference (a retry, a document the engine refused, a stale marker),
 * and for a whole index (taxcert reindex, before its alias moves). Reads what the last refresh
 * shows, so a caller in the worker runs it in the send lane right after a refresh there.
 *
 * One composite aggregation over every rollup field: each bucket is a set of certificates equal
 * in all of them, added to the tally as that many certificates with their face total (summed
 * per bucket and rounded to the cent, exact as in the bid-rate mapper's sumToCents).
 */

export interface RollupScope {
  countySlug: string;
  taxYear: number;
}

const PAGE = 10_000;
/** The fields a bucket is keyed by: every rollup field but the face, which is summed. */
const KEYED = ROLLUP_SOURCE_FIELDS.filter((f) => f !== 'face_amount');
/** Documents per _bulk request of rollups. */
const WRITE_BATCH = 2000;

function certificatesIn(scope: RollupScope | undefined): object {
  if (!scope) return CERTIFICATES_ONLY;
  return {
    bool: {
      filter: [CERTIFICATES_ONLY, { term: { county_slug: scope.countySlug } }, { term: { tax_year: scope.taxYear } }],
    },
  };
}

function rollupsIn(scope: RollupScope | undefined): object {
  const filter: object[] = [{ exists: { field: ROLLUP_KIND_FIELD } }];
  if (scope) filter.push({ term: { 'rollup.county_slug': scope.countySlug } }, { term: { 'rollup.tax_year': scope.taxYear } });
  // The built marker belongs to the index, not to a county: a rebuild of one never removes it.
  return { bool: { filter, must_not: [{ term: { [ROLLUP_KIND_FIELD]: 'built' } }] } };
}

/** The exact rollups of what the index shows now (one county and tax year, or all of it). */
export async function tallyFromCertificates(client: Client, index: string, scope?: RollupScope): Promise<RollupTally> {
  const tally = new RollupTally();
  let after: Record<string, unknown> | undefined;
  for (;;) {
    const res = await client.search({
      index,
      body: {
        size: 0,
        query: certificatesIn(scope),
        aggs: {
          keys: {
            composite: {
              size: PAGE,
              sources: KEYED.map((field) => ({ [field]: { terms: { field, missing_bucket: true } } })),
              ...(after ? { after } : {}),
            },
            aggs: { face: { sum: { field: 'face_amount' } } },
          },
        },
      } as never,
    });
    const keys = (
      res.body.aggregations as {
        keys: {
          buckets: { key: Record<string, unknown>; doc_count: number; face: { value: number } }[];
          after_key?: Record<string, unknown>;
        };
      }
    ).keys;
    for (const b of keys.buckets) {
      const k = b.key;
      const cert: RolledCertificate = {
        county_slug: String(k.county_slug),
        tax_year: Number(k.tax_year),
        vendor: k.vendor as string | null,
        interest_rate: k.interest_rate as number | null,
        // Booleans come back as true/false; dates as epoch millis.
        struck_to_county: k.struck_to_county === null ? null : [true, 1, 'true'].includes(k.struck_to_county as never),
        status: k.status as string | null,
        sale_date: day(k.sale_date),
        redeemed_date: day(k.redeemed_date),
      };
      tally.add(cert, 1, b.doc_count, Math.round(b.face.value * 100));
    }
    if (!keys.after_key || keys.buckets.length < PAGE) return tally;
    after = keys.after_key;
  }
}

function day(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return new Date(Number(v)).toISOString().slice(0, 10);
}

/**
 * Replaces the rollups of a scope (its stale marker with them) by the tally, and marks the index
 * as keeping rollups. The caller makes sure no refresh runs between the delete and the writes.
 */
export async function replaceRollups(client: Client, index: string, tally: RollupTally, scope?: RollupScope): Promise<void> {
  await client.deleteByQuery({ index, body: { query: rollupsIn(scope) }, refresh: false, conflicts: 'proceed' } as never);
  const docs = [...tally.entries.values()].filter((e) => e.count !== 0);
  docs.push({ key: markerKey('built'), count: 0, faceCents: 0 });
  for (let i = 0; i < docs.length; i += WRITE_BATCH) {
    const body = docs.slice(i, i + WRITE_BATCH).flatMap((e) => [{ index: { _index: index, _id: rollupId(e.key) } }, rollupDocument(e)]);
    const res = await client.bulk({ body: body as never, filter_path: 'errors,items.*.error' });
    if ((res.body as { errors?: boolean }).errors)
      throw new BulkRequestError('unavailable', `writing rollups to ${index} failed: ${JSON.stringify(res.body).slice(0, 300)}`);
  }
}

/** The rollups of a scope made again from its certificates: refresh, tally, replace. */
export async function rebuildRollups(client: Client, index: string, scope?: RollupScope): Promise<number> {
  await client.indices.refresh({ index });
  const tally = await tallyFromCertificates(client, index, scope);
  await replaceRollups(client, index, tally, scope);
  return tally.entries.size;
}
