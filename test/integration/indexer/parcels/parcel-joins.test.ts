import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARCELS_HEADER } from '../../../../services/formats/parcels-csv.ts';
import { getDatasetState } from '../../../../services/control/ingest/freshness.ts';
import { listQuarantine } from '../../../../services/control/ingest/quarantine.ts';
import { eventBounds } from '../../../../services/control/feed/events.ts';
import { certificateId } from '../../../../services/domain/ids.ts';
import { type Hit, writeChanges } from '../../../../indexer/parcels/join-certificates.ts';
import { type FileIngest, openFileIngest } from '../../../helpers/file-ingest.ts';

// The parcel layer's two joins through the real ingest path (processFile, as the worker runs a
// job): certificates take their parcel row's facts whichever of the two files loads first, a
// certificate with no parcel row has no location, and the parcel file's update of the
// certificates records no event (none of the facts is a public field).

const CERT_HEADER =
  '"Cert #","Tax Year","County","Parcel Number","Status","Face Amount","Delinquent Tax","Bid Rate %","Sale Date","Certificate Holder","Struck To County","Redeemed","Redemption Date","Redemption Amount","Tax Deed App Date","Owner Name","Situs Address","Legal Description","Batch #"';
const certRow = (county: string, n: number, parcel: string, owner: string, address: string) =>
  `2023-00000${n},2023,${county},${parcel},SOLD,$1260.00,$1200.00,5,05/28/2024,Gulf Coast Lien Fund LLC,N,N,,,,"${owner}","${address}",,B-1`;

let t: FileIngest;
let dir: string;

beforeAll(async () => {
  t = await openFileIngest(import.meta.url);
  dir = mkdtempSync(join(tmpdir(), 'parcel-joins-'));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.teardown();
});

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

const loadParcels = (county: string, path: string, jobId: string, at: string) =>
  t.load({ dataset: 'parcels', file: path, vendor: 'manual', county, taxYear: 2025, jobId }, at);
const loadCertificates = (county: string, path: string, jobId: string, at: string) =>
  t.load({ dataset: 'certificates', file: path, vendor: 'lienport', county, taxYear: 2023, jobId }, at);

async function certificate(county: string, n: number): Promise<Record<string, unknown>> {
  const res = await t.runtime.opensearch.get({
    index: `${t.config.INDEX_PREFIX}-certificates`,
    id: certificateId(county, 2023, `2023-00000${n}`),
  });
  return res.body._source as Record<string, unknown>;
}

/** A county's parcel file: parcels 1 and 2 located, a third row another county's and a fourth in Georgia. */
function parcelFile(name: string, dor: string, p: string, lat: number, lon: number, value = 350000): string {
  return file(name, [
    PARCELS_HEADER.join(','),
    `${dor},${p}-0001,2025,${value},7500,001,Y,1 NW 5TH ST,MIAMI,33128,${lat},${lon}`,
    `${dor},${p}-0002,2025,90000,12000,000,N,2 NW 5TH ST,Miami Springs,33166,${(lat + 0.01).toFixed(4)},${(lon + 0.01).toFixed(4)}`,
    `16,${p}-0003,2025,100,100,000,N,3 NW 5TH ST,MIAMI,33128,${lat},${lon}`,
    `${dor},${p}-0004,2025,100,100,000,N,4 NW 5TH ST,MIAMI,33128,33.7490,-84.3880`,
  ]);
}

/** Certificates 1 and 2 on located parcels, 3 on a parcel the roll does not have. */
function certificateFile(name: string, countyName: string, p: string): string {
  return file(name, [
    CERT_HEADER,
    certRow(countyName, 1, `${p}-0001`, 'OAK GROVE HOLDINGS INC', '1 NW 5TH ST, MIAMI, FL 33128'),
    certRow(countyName, 2, `${p}-0002`, 'SMITH, JOHN', '2 NW 5TH ST, MIAMI SPRINGS, FL 33166'),
    certRow(countyName, 3, `${p}-0009`, 'DOE, JANE', '9 NW 5TH ST, HIALEAH, FL 33010'),
  ]);
}

function expectJoined(c1: Record<string, unknown>, c2: Record<string, unknown>, c3: Record<string, unknown>, lat: number, lon: number) {
  expect(c1).toMatchObject({
    owner_type: 'entity',
    location: { lat, lon },
    just_value: 350000,
    land_sqft: 7500,
    use_code: '001',
    homestead: true,
    assessment_year: 2025,
    parcel_address: '1 NW 5TH ST',
    situs_city: 'MIAMI',
    situs_zip: '33128',
  });
  expect(c2).toMatchObject({ owner_type: 'person', homestead: false, use_code: '000', situs_city: 'MIAMI SPRINGS', situs_zip: '33166' });
  // No parcel row: no location and no roll facts; city and ZIP from its own address.
  expect(c3).toMatchObject({ owner_type: 'person', situs_city: 'HIALEAH', situs_zip: '33010' });
  for (const field of ['location', 'just_value', 'land_sqft', 'use_code', 'homestead', 'assessment_year', 'parcel_address'])
    expect(c3).not.toHaveProperty(field);
}

describe('parcels, then certificates', () => {
  const lat = 25.78;
  const lon = -80.2;

  it('loads the parcel file, quarantining the wrong county and the point outside Florida', async () => {
    const at = '2026-01-05T10:00:00.000Z';
    const outcome = await loadParcels('miami-dade', parcelFile('md-parcels.csv', '23', '01-3125', lat, lon), 'md-parcels', at);
    expect(outcome).toMatchObject({ format: 'parcels-csv', rowsRead: 4, indexed: 2, updated: 0, quarantined: 2 });
    const reasons = (await listQuarantine(t.runtime.sql, { runId: 'md-parcels' })).map((q) => q.reasons);
    expect(reasons).toEqual([
      ['county_number: "16" (Broward, revenue county 16) is not this file\'s county Miami-Dade (revenue county 23)'],
      ['location: 33.749,-84.388 is outside Florida (lat 24.3..31.1, lon -87.7..-79.8)'],
    ]);
    expect((await t.documents('parcels')).map((d) => d.id)).toEqual(['miami-dade:0131250001', 'miami-dade:0131250002']);
    expect((await getDatasetState(t.runtime.sql, 'parcels')).lastIngestedAt).toBe(at);
  });

  it('certificates loaded next carry their parcel facts; one without a parcel row has no location', async () => {
    await loadCertificates('miami-dade', certificateFile('md-certs.csv', 'Miami-Dade', '01-3125'), 'md-certs', '2026-01-05T11:00:00.000Z');
    expectJoined(await certificate('miami-dade', 1), await certificate('miami-dade', 2), await certificate('miami-dade', 3), lat, lon);
  });

  it('a parcel file that changes a value updates the certificate in place and records no event', async () => {
    const before = await certificate('miami-dade', 1);
    const { lastSeq } = await eventBounds(t.runtime.sql);
    await loadParcels(
      'miami-dade',
      parcelFile('md-parcels-2.csv', '23', '01-3125', lat, lon, 410000),
      'md-parcels-2',
      '2026-01-06T10:00:00.000Z',
    );
    expect(await certificate('miami-dade', 1)).toEqual({ ...before, just_value: 410000 });
    expect((await eventBounds(t.runtime.sql)).lastSeq).toBe(lastSeq);
  });
});

describe('certificates, then parcels', () => {
  const lat = 26.12;
  const lon = -80.25;

  it('certificates loaded first have no location; the parcel load gives them their facts', async () => {
    await loadCertificates('broward', certificateFile('bw-certs.csv', 'Broward', '50-4201'), 'bw-certs', '2026-01-07T10:00:00.000Z');
    const first = await certificate('broward', 1);
    expect(first).toMatchObject({ owner_type: 'entity', situs_city: 'MIAMI', situs_zip: '33128' });
    expect(first).not.toHaveProperty('location');

    const { lastSeq } = await eventBounds(t.runtime.sql);
    const outcome = await loadParcels(
      'broward',
      parcelFile('bw-parcels.csv', '16', '50-4201', lat, lon),
      'bw-parcels',
      '2026-01-07T11:00:00.000Z',
    );
    // Revenue county 16 is Broward: only the Georgia point is refused here.
    expect(outcome).toMatchObject({ rowsRead: 4, quarantined: 1 });
    expectJoined(await certificate('broward', 1), await certificate('broward', 2), await certificate('broward', 3), lat, lon);
    // The certificates' public fields and ingest time are the certificate file's: no event of any kind.
    expect((await certificate('broward', 1)).ingested_at).toBe('2026-01-07T10:00:00.000Z');
    expect((await eventBounds(t.runtime.sql)).lastSeq).toBe(lastSeq);
  });

  it('a re-ingest of the same parcel file changes no certificate', async () => {
    const before = await Promise.all([1, 2, 3].map((n) => certificate('broward', n)));
    const versions = await versionsOf('broward');
    const outcome = await loadParcels('broward', join(dir, 'bw-parcels.csv'), 'bw-parcels-again', '2026-01-08T10:00:00.000Z');
    expect(outcome).toMatchObject({ indexed: 0, updated: 3, quarantined: 1 });
    expect(await Promise.all([1, 2, 3].map((n) => certificate('broward', n)))).toEqual(before);
    expect(await versionsOf('broward')).toEqual(versions);
  });

  it('a certificate re-ingest keeps the facts and records no change for them', async () => {
    const { lastSeq } = await eventBounds(t.runtime.sql);
    await loadCertificates('broward', join(dir, 'bw-certs.csv'), 'bw-certs-again', '2026-01-09T10:00:00.000Z');
    expectJoined(await certificate('broward', 1), await certificate('broward', 2), await certificate('broward', 3), lat, lon);
    expect((await eventBounds(t.runtime.sql)).lastSeq).toBe(lastSeq);
  });
});

describe('a parcel file and a certificate file of one county at once', () => {
  // The worker does not serialize a county's jobs: whichever finishes last must leave the joined documents.
  it.each([
    ['orange', 'Orange', '58', 28.54, -81.38],
    ['hillsborough', 'Hillsborough', '39', 27.95, -82.46],
  ])('%s: every certificate ends with its parcel facts', async (county, name, dor, lat, lon) => {
    const p = `${dor}-7001`;
    await Promise.all([
      loadCertificates(county, certificateFile(`${county}-certs.csv`, name, p), `${county}-certs`, '2026-01-10T10:00:00.000Z'),
      loadParcels(county, parcelFile(`${county}-parcels.csv`, dor, p, lat, lon), `${county}-parcels`, '2026-01-10T10:00:00.000Z'),
    ]);
    expectJoined(await certificate(county, 1), await certificate(county, 2), await certificate(county, 3), lat, lon);
  });
});

/** The engine's version of each certificate of a county: an update that wrote anything bumps it. */
async function versionsOf(county: string): Promise<Record<string, number>> {
  const res = await t.runtime.opensearch.search({
    index: `${t.config.INDEX_PREFIX}-certificates`,
    body: { size: 100, version: true, query: { term: { county_slug: county } } } as never,
  });
  const hits = res.body.hits.hits as unknown as { _id: string; _version: number }[];
  return Object.fromEntries(hits.map((h) => [h._id, h._version]));
}

describe('a certificate rewritten between the join reading it and writing it', () => {
  it('keeps the rewrite and still takes the parcel facts; one deleted meanwhile stays deleted', async () => {
    const client = t.runtime.opensearch;
    const index = `${t.config.INDEX_PREFIX}-certificates`;
    const ids = [1, 2].map((n) => certificateId('broward', 2023, `2023-00000${n}`));
    const read = await client.mget({ index, body: { ids } });
    const docs = (read.body as { docs: { _id: string; _seq_no: number; _primary_term: number; _source: Record<string, unknown> }[] }).docs;
    const hits: Hit[] = docs.map((d) => ({ ...d, _source: d._source as Hit['_source'], sort: [] }));
    // A certificate file's write and a removal land after the page was read.
    await client.update({ index, id: ids[0]!, body: { doc: { owner_name: 'REWRITTEN MEANWHILE LLC' } }, refresh: true });
    await client.delete({ index, id: ids[1]!, refresh: true });

    await writeChanges(client, index, [
      { hit: hits[0]!, change: { just_value: 123456 } },
      { hit: hits[1]!, change: { just_value: 654321 } },
    ]);
    await client.indices.refresh({ index });
    expect(await certificate('broward', 1)).toMatchObject({ owner_name: 'REWRITTEN MEANWHILE LLC', just_value: 123456 });
    expect((await client.exists({ index, id: ids[1]! })).body).toBe(false);
  });
});
