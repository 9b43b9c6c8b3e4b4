import type { Client } from '@opensearch-project/opensearch';
import { CERTIFICATES_ONLY } from '../../services/engine/dataset-aliases.ts';
import {
  BUILT_KIND,
  markerKey,
  ROLLUP_KIND_FIELD,
  entryOf,
  MARKET_FIELDS,
  type RolledCertificate,
  type RollupEntry,
  RollupTally,
  rollupDocument,
  rollupId,
  withWholeIndexGroups,
} from '../../services/engine/rollups/rollup-docs.ts';
import { writeRollupLines } from './commit.ts';

/**
 * Rollups made again from the certificates themselves: for a county and tax year whose rollups
 * a load could not keep by difference (a retry, a document the engine refused, a stale marker),
 * and for a whole index (taxcert reindex, before its alias moves). Reads what the last refresh
 * shows, so a caller in the worker runs it in the send lane right after a refresh there.
 *
 * Composite aggregations over the rollup fields (one for the market's, one for the groups'):
 * each bucket is a set of certificates equal in all of them, added to the tally as that many
 * certificates with their face total (summed per bucket and rounded to the cent, exact as in the
 * bid-rate mapper's sumToCents).
 */

export interface RollupScope {
  countySlug: string;
  taxYear: number;
}

const PAGE = 10_000;
/** The fields a market bucket is keyed by: every market field but the face, which is summed. */
const MARKET_KEYED = MARKET_FIELDS.filter((f) => f !== 'face_amount').map((f) => [f, f] as const);
/** A group bucket's keys: the group's fields (the spelling as listed) and what its counts are per. */
const GROUP_KEYED = [
  ['holder_group_id', 'holder_group_id'],
  ['holder_group_name', 'holder_group_name'],
  ['holder_name', 'holder_name.raw'],
  ['county_held', 'county_held'],
  ['county_slug', 'county_slug'],
  ['tax_year', 'tax_year'],
  ['interest_rate', 'interest_rate'],
  ['status', 'status'],
] as const;
/** Documents per _bulk request of rollups, and group ids per read of their county rollups. */
const WRITE_BATCH = 2000;

type Bucket = { key: Record<string, unknown>; doc_count: number; face: { value: number } };

function certificatesIn(countySlug?: string, taxYear?: number): object {
  const filter: object[] = [CERTIFICATES_ONLY];
  if (countySlug !== undefined) filter.push({ term: { county_slug: countySlug } });
  if (taxYear !== undefined) filter.push({ term: { tax_year: taxYear } });
  return { bool: { filter } };
}

/** A county and tax year's market rollups and marker, or every rollup but the built marker. */
function rollupsIn(scope: RollupScope | undefined): object {
  const filter: object[] = [{ exists: { field: ROLLUP_KIND_FIELD } }];
  if (!scope) return { bool: { filter, must_not: [{ term: { [ROLLUP_KIND_FIELD]: BUILT_KIND } }] } };
  filter.push({ term: { 'rollup.county_slug': scope.countySlug } }, { term: { 'rollup.tax_year': scope.taxYear } });
  // The built marker belongs to the index, not to a county: a rebuild of one never removes it.
  return { bool: { filter, must_not: [{ terms: { [ROLLUP_KIND_FIELD]: [BUILT_KIND, 'groups', 'groups_all'] } }] } };
}

const groupsOfCounty = (countySlug: string) => ({
  bool: { filter: [{ term: { [ROLLUP_KIND_FIELD]: 'groups' } }, { term: { 'rollup.county_slug': countySlug } }] },
});

/** Every bucket of a composite aggregation of the certificates by `keyed`, with its face total. */
async function eachBucket(
  client: Client,
  index: string,
  query: object,
  keyed: readonly (readonly [string, string])[],
  each: (b: Bucket) => void,
): Promise<void> {
  let after: Record<string, unknown> | undefined;
  for (;;) {
    const res = await client.search({
      index,
      body: {
        size: 0,
        query,
        aggs: {
          keys: {
            composite: {
              size: PAGE,
              sources: keyed.map(([name, field]) => ({ [name]: { terms: { field, missing_bucket: true } } })),
              ...(after ? { after } : {}),
            },
            aggs: { face: { sum: { field: 'face_amount' } } },
          },
        },
      } as never,
    });
    const keys = (res.body.aggregations as { keys: { buckets: Bucket[]; after_key?: Record<string, unknown> } }).keys;
    for (const b of keys.buckets) each(b);
    if (!keys.after_key || keys.buckets.length < PAGE) return;
    after = keys.after_key;
  }
}

// Booleans come back as true/false (or 1); dates as epoch millis.
const bool = (v: unknown) => (v === null || v === undefined ? null : [true, 1, 'true'].includes(v as never));
const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
const cents = (b: Bucket) => Math.round(b.face.value * 100);

function day(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  return new Date(Number(v)).toISOString().slice(0, 10);
}

/**
 * The exact rollups of what the index shows now: for a scope, its county and tax year's market
 * rollups and its county's group rollups (every year: a group's county figures span them);
 * for no scope, all of them. The groups' whole-index rollups are made by replaceRollups: from
 * the tally for the whole index, from every county's rollups for a scope.
 */
export async function tallyFromCertificates(client: Client, index: string, scope?: RollupScope): Promise<RollupTally> {
  const tally = new RollupTally();
  await eachBucket(client, index, certificatesIn(scope?.countySlug, scope?.taxYear), MARKET_KEYED, (b) => {
    const k = b.key;
    const cert: RolledCertificate = {
      county_slug: String(k.county_slug),
      tax_year: Number(k.tax_year),
      vendor: text(k.vendor),
      interest_rate: k.interest_rate as number | null,
      struck_to_county: bool(k.struck_to_county),
      status: text(k.status),
      sale_date: day(k.sale_date),
      redeemed_date: day(k.redeemed_date),
    };
    tally.add(cert, 1, b.doc_count, cents(b), 'market');
  });
  await eachBucket(client, index, certificatesIn(scope?.countySlug), GROUP_KEYED, (b) => {
    const k = b.key;
    if (k.holder_group_id === null) return;
    const cert: RolledCertificate = {
      county_slug: String(k.county_slug),
      tax_year: Number(k.tax_year),
      interest_rate: k.interest_rate as number | null,
      status: text(k.status),
      holder_group_id: String(k.holder_group_id),
      holder_group_name: text(k.holder_group_name),
      holder_name: text(k.holder_name),
      county_held: bool(k.county_held),
    };
    tally.add(cert, 1, b.doc_count, cents(b), 'groups');
  });
  return tally;
}

/**
 * Writes the entries (a rollup of count 0 is deleted: nothing left to add up) and the index's
 * built marker, a batch at a time.
 */
async function writeEntries(client: Client, index: string, entries: readonly RollupEntry[]): Promise<void> {
  const lines = entries.map((e) =>
    e.count === 0
      ? [{ delete: { _index: index, _id: rollupId(e.key) } }]
      : [{ index: { _index: index, _id: rollupId(e.key) } }, rollupDocument(e)],
  );
  const built = markerKey('built');
  lines.push([{ index: { _index: index, _id: rollupId(built) } }, rollupDocument({ key: built, count: 0, faceCents: 0 })]);
  for (let i = 0; i < lines.length; i += WRITE_BATCH) {
    // Unconditional writes: no version conflict can come back.
    await writeRollupLines(client, index, lines.slice(i, i + WRITE_BATCH).flat());
  }
}

/** A total order of group rollups: one per group and county. */
const GROUP_ORDER = [{ 'rollup.group_id': 'asc' }, { 'rollup.county_slug': 'asc' }];

/** Every group rollup a query finds (what the last refresh shows), page after page. */
async function allRollups(client: Client, index: string, query: object): Promise<RollupEntry[]> {
  const out: RollupEntry[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const res = await client.search({
      index,
      body: { size: PAGE, query, sort: GROUP_ORDER, ...(after ? { search_after: after } : {}) } as never,
    });
    const hits = res.body.hits.hits as unknown as { _source: { rollup: Record<string, unknown> }; sort: unknown[] }[];
    for (const h of hits) out.push(entryOf(h._source));
    if (hits.length < PAGE) return out;
    after = hits.at(-1)!.sort;
  }
}

/**
 * The whole-index rollups of the groups a county's rebuild touched, added up from every
 * county's group rollups: the other counties' as indexed, this county's as just made.
 */
async function groupsAcrossCounties(
  client: Client,
  index: string,
  countySlug: string,
  groupIds: readonly string[],
  county: readonly RollupEntry[],
): Promise<RollupEntry[]> {
  const all = new RollupTally();
  const add = (e: RollupEntry) => all.addEntry({ ...e, key: { kind: 'groups_all', group_id: e.key.group_id } });
  for (const e of county) add(e);
  for (let i = 0; i < groupIds.length; i += WRITE_BATCH) {
    const ids = groupIds.slice(i, i + WRITE_BATCH);
    const query = {
      bool: {
        filter: [{ term: { [ROLLUP_KIND_FIELD]: 'groups' } }, { terms: { 'rollup.group_id': ids } }],
        must_not: [{ term: { 'rollup.county_slug': countySlug } }],
      },
    };
    for (const e of await allRollups(client, index, query)) add(e);
  }
  // A group with nothing left anywhere is written with count 0: its document is deleted.
  return groupIds.map((id) => all.entries.get(rollupId({ kind: 'groups_all', group_id: id })) ?? zeroOf(id));
}

const zeroOf = (id: string): RollupEntry => ({ key: { kind: 'groups_all', group_id: id }, count: 0, faceCents: 0 });

/**
 * Replaces the rollups of a scope (its stale marker with them) by the tally, and marks the index
 * as keeping rollups. For a scope, the county's group rollups are replaced too and the
 * whole-index ones of every group it had or has are added up again from all counties. The caller
 * makes sure no refresh runs between the delete and the writes.
 */
export async function replaceRollups(client: Client, index: string, tally: RollupTally, scope?: RollupScope): Promise<void> {
  const entries = [...(scope ? tally : withWholeIndexGroups(tally)).entries.values()];
  if (!scope) {
    await client.deleteByQuery({ index, body: { query: rollupsIn(undefined) }, refresh: false, conflicts: 'proceed' } as never);
    await writeEntries(
      client,
      index,
      entries.filter((e) => e.count !== 0),
    );
    return;
  }
  const county = entries.filter((e) => e.key.kind === 'groups' && e.count !== 0);
  const before = (await allRollups(client, index, groupsOfCounty(scope.countySlug))).map((e) => e.key.group_id!);
  const groupIds = [...new Set([...before, ...county.map((e) => e.key.group_id!)])].sort();
  const wholeIndex = await groupsAcrossCounties(client, index, scope.countySlug, groupIds, county);
  for (const query of [rollupsIn(scope), groupsOfCounty(scope.countySlug)])
    await client.deleteByQuery({ index, body: { query }, refresh: false, conflicts: 'proceed' } as never);
  const market = entries.filter((e) => (e.key.kind === 'rates' || e.key.kind === 'redemptions') && e.count !== 0);
  await writeEntries(client, index, [...market, ...county, ...wholeIndex]);
}

/** The rollups of a scope made again from its certificates: refresh, tally, replace. */
export async function rebuildRollups(client: Client, index: string, scope?: RollupScope): Promise<number> {
  await client.indices.refresh({ index });
  const tally = await tallyFromCertificates(client, index, scope);
  await replaceRollups(client, index, tally, scope);
  return tally.entries.size;
}
