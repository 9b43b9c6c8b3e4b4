import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceKm } from '../../../../services/domain/county-centroids.ts';
import { PRIVATE_EVENT_TYPES } from '../../../../services/domain/event-types.ts';
import { PARCELS_HEADER } from '../../../../services/formats/parcels-csv.ts';
import { enqueueFiles } from '../../../../services/process/ingest-runner.ts';
import { type AlertClients, openAlertClients } from '../../../helpers/alert-clients.ts';
import { alachuaCertificates } from '../../../helpers/event-files.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * A saved search on the map alerts like any other: its owner saves "not a homestead, within 3 km
 * of this point" over the API, Alachua's parcel roll and then its certificate files go through the
 * real queue and worker, and the search hears exactly the certificates an independent distance
 * computation over the roll's rows puts inside, first as one matches_loaded, then as match_added
 * for a new certificate inside; a new certificate outside says nothing, and the other client
 * hears none of it.
 */

const N = 40;
const CENTRE = { lat: 29.6516, lon: -82.3248 };
const RADIUS_KM = 3;

interface FeedEvent {
  type: string;
  data: { saved_search?: { id: string }; object: { id?: string; count?: number } };
}

/** Parcel n: even ones about 1-2 km from the centre, odd ones about 8 km out; every third a homestead. */
function place(n: number): { lat: number; lon: number; homestead: boolean } {
  const km = n % 2 === 0 ? 1 + (n % 5) * 0.25 : 8 + (n % 3);
  const angle = (n * 2.399) % (2 * Math.PI);
  const lat = CENTRE.lat + (km / 111.2) * Math.sin(angle);
  const lon = CENTRE.lon + (km / (111.2 * Math.cos((CENTRE.lat * Math.PI) / 180))) * Math.cos(angle);
  return { lat: Math.round(lat * 1e5) / 1e5, lon: Math.round(lon * 1e5) / 1e5, homestead: n % 3 === 0 };
}

const inside = (n: number) => {
  const p = place(n);
  return !p.homestead && distanceKm(p, CENTRE) <= RADIUS_KM;
};

describe('a saved search on the map', () => {
  let clients: AlertClients;
  let dir: string;
  let search = '';
  const privateOf = (events: FeedEvent[]) => events.filter((e) => (PRIVATE_EVENT_TYPES as readonly string[]).includes(e.type));

  beforeAll(async () => {
    clients = await openAlertClients(import.meta.url);
    dir = mkdtempSync(join(tmpdir(), 'map-alerts-'));
    // Alachua's roll (revenue county 11): a row for every certificate's parcel, the two new ones included.
    const rows = Array.from({ length: N + 2 }, (_, n) => {
      const c = sampleCertificate({}, n);
      const p = place(n);
      return `11,${c.parcel_id},2025,${120000 + n * 1000},9000,001,${p.homestead ? 'Y' : 'N'},${100 + n} NW 1ST ST,GAINESVILLE,32601,${p.lat},${p.lon}`;
    });
    const file = join(dir, 'parcels.csv');
    writeFileSync(file, `${[PARCELS_HEADER.join(','), ...rows].join('\n')}\n`);
    const [loaded] = await enqueueFiles(
      clients.t.runtime,
      [{ dataset: 'parcels', file, vendor: 'manual', county: 'alachua', taxYear: 2025 }],
      { wait: true },
    );
    expect(loaded?.status, loaded?.error).toBe('succeeded');
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await clients?.close();
  });

  it('a first load gives the search one matches_loaded of exactly the certificates inside', async () => {
    const res = await clients.call(clients.a, 'POST', '/api/v1/saved-searches', {
      name: 'Gainesville, not a homestead',
      params: { near: `${CENTRE.lat},${CENTRE.lon}`, radius: `${RADIUS_KM}km`, homestead: false },
    });
    expect(res.statusCode, res.body).toBe(201);
    search = res.json().data.id;

    await clients.ingest(alachuaCertificates(N), 'first.csv');
    const expected = Array.from({ length: N }, (_, n) => n).filter(inside);
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(N);
    const events = privateOf(await clients.feed<FeedEvent>(clients.a));
    expect(events.map((e) => [e.type, e.data.saved_search?.id, e.data.object.count])).toEqual([
      ['saved_search.matches_loaded', search, expected.length],
    ]);
    const matches = await clients.call(clients.a, 'GET', `/api/v1/saved-searches/${search}/matches?limit=100`);
    expect(matches.statusCode, matches.body).toBe(200);
    expect(
      matches
        .json()
        .data.map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual(expected.map((n) => sampleCertificate({}, n).id).sort());
  });

  it('a new certificate inside is match_added, one outside says nothing, and the other client hears neither', async () => {
    expect(inside(N)).toBe(true);
    expect(inside(N + 1)).toBe(false);
    const seen = privateOf(await clients.feed<FeedEvent>(clients.a)).length;
    await clients.ingest([...alachuaCertificates(N), sampleCertificate({}, N), sampleCertificate({}, N + 1)], 'second.csv');
    const events = privateOf(await clients.feed<FeedEvent>(clients.a)).slice(seen);
    expect(events.map((e) => [e.type, e.data.saved_search?.id, e.data.object.id])).toEqual([
      ['saved_search.match_added', search, sampleCertificate({}, N).id],
    ]);
    expect(privateOf(await clients.feed<FeedEvent>(clients.b))).toEqual([]);
  });
});
