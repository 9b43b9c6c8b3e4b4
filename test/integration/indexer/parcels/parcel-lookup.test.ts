import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawRow } from '../../../../indexer/adapters/types.ts';
import { parcelLookup } from '../../../../indexer/certificates/parcel-lookup.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { openTestRuntime, type TestRuntime } from '../../../helpers/runtime.ts';

// Certificate ingest fetches parcels a batch of rows at a time, the next batch's in flight: every
// row, across batch boundaries, must be built while its own batch's parcels are the ones looked up.

let t: TestRuntime;
const PARCELS = 2500;

async function* rowsOf(ids: (string | null)[]): AsyncGenerator<RawRow> {
  for (const [i, id] of ids.entries()) yield { line: i + 2, raw: id ?? '', fields: { parcel: id ?? '' } };
}

beforeAll(async () => {
  t = await openTestRuntime(import.meta.url);
  const index = aliasName(t.config.INDEX_PREFIX, 'parcels');
  const body: object[] = [];
  for (let i = 0; i < PARCELS; i++) {
    const pid = `P${String(i).padStart(6, '0')}`;
    body.push(
      { index: { _id: `lee:${pid}` } },
      {
        id: `lee:${pid}`,
        county_slug: 'lee',
        county_name: 'Lee',
        parcel_id: pid,
        parcel_id_normalized: pid,
        assessment_year: 2025,
        just_value: i,
        land_sqft: 100,
        use_code: '001',
        homestead: false,
        situs_address: `${i} PALM ST`,
        situs_city: 'FORT MYERS',
        situs_zip: '33901',
        location: { lat: 26.6, lon: -81.8 },
        ingested_at: '2026-01-01T00:00:00.000Z',
      },
    );
  }
  await t.runtime.opensearch.bulk({ index, body: body as never, refresh: true });
});
afterAll(() => t.teardown());

describe('parcelLookup', () => {
  it('gives each row its own parcel across batches; rows without a parcel row or id get none', async () => {
    const lookup = parcelLookup(t.runtime.opensearch, t.config.INDEX_PREFIX, 'lee');
    // Parcel ids as a county writes them (lower case, a dash), every 7th not on the roll, one blank.
    const ids = Array.from({ length: 3100 }, (_, i) =>
      i === 1500 ? null : i % 7 === 0 ? `x-${i}` : `p-${String(i % PARCELS).padStart(6, '0')}`,
    );
    const seen: (number | undefined)[] = [];
    for await (const row of lookup.rows(rowsOf(ids), (r) => r.fields.parcel || null)) {
      const id = row.fields.parcel;
      seen.push(id ? lookup.get(id.replace('-', '').toUpperCase())?.just_value : undefined);
    }
    expect(seen).toEqual(ids.map((id, i) => (id === null || i % 7 === 0 ? undefined : i % PARCELS)));
    expect(lookup.version()).toBe(`${PARCELS}:${Date.parse('2026-01-01T00:00:00.000Z')}`);
  });

  it('a county with no parcel rows is read without an mget', async () => {
    const lookup = parcelLookup(t.runtime.opensearch, t.config.INDEX_PREFIX, 'collier');
    let rows = 0;
    for await (const row of lookup.rows(rowsOf(['A-1', 'B-2']), (r) => r.fields.parcel || null)) {
      expect(lookup.get(row.fields.parcel!.replace('-', ''))).toBeUndefined();
      rows++;
    }
    expect(rows).toBe(2);
    expect(lookup.version()).toBe('0:');
  });

  it("fails the file's read, not the process, when the engine refuses the county's parcel version before a batch is cut", async () => {
    // A parcels alias whose index is closed: the engine answers the version's search with an error
    // that is not "no such index" (a refusal under load, a 429, takes the same path).
    const prefix = `${t.config.INDEX_PREFIX}-closed`;
    const index = `${aliasName(prefix, 'parcels')}-v1`;
    await t.runtime.opensearch.indices.create({ index, body: { aliases: { [aliasName(prefix, 'parcels')]: {} } } as never });
    await t.runtime.opensearch.indices.close({ index });
    try {
      // The file's first rows come after the refusal, as a large file's first batch does.
      async function* slowRows(): AsyncGenerator<RawRow> {
        await new Promise((resolve) => setTimeout(resolve, 500));
        yield* rowsOf(['A-1', 'B-2']);
      }
      const lookup = parcelLookup(t.runtime.opensearch, prefix, 'lee');
      const read = async () => {
        for await (const _ of lookup.rows(slowRows(), (r) => r.fields.parcel || null));
      };
      await expect(read()).rejects.toMatchObject({ meta: { statusCode: 400 } });
    } finally {
      await t.runtime.opensearch.indices.delete({ index });
    }
  });
});
