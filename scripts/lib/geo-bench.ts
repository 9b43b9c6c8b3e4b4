import type { Client } from '@opensearch-project/opensearch';
import { apiCall } from './api-call.ts';
import { percentile } from './percentile.ts';

/**
 * bench:api's map figures (targets on the 1M located set): a radius search (3 miles around a
 * located certificate, with the same status filter) against the very same search without the
 * geo filter, interleaved so both sides see the same engine state (target: radius p50 within
 * 1.3x); and the geo-grid at zoom 10 over one county (target p50 under 100 ms), for the county
 * with the most located certificates and for three more. Each side is warmed with other samples
 * than the measured ones; every answer must be 200 or the figure is not printed. The radius search
 * is a page of rows (never served by the request cache); the grid is timed with that cache cleared.
 */

const round = (x: number) => Math.round(x * 10) / 10;

interface Located {
  lat: number;
  lon: number;
  county: string;
}

/** Located certificates spread over the set (a stride through id_order), as map centres. */
async function centres(client: Client, index: string, n: number): Promise<Located[]> {
  const res = await client.search({
    index,
    body: {
      size: n,
      query: { function_score: { query: { exists: { field: 'location' } }, random_score: { seed: 39, field: 'id_order' } } },
      _source: ['location', 'county_slug'],
    } as never,
  });
  return (res.body.hits.hits as { _source: { location: { lat: number; lon: number }; county_slug: string } }[]).map((h) => ({
    lat: h._source.location.lat,
    lon: h._source.location.lon,
    county: h._source.county_slug,
  }));
}

async function counties(client: Client, index: string): Promise<string[]> {
  const res = await client.search({
    index,
    body: { size: 0, query: { exists: { field: 'location' } }, aggs: { c: { terms: { field: 'county_slug', size: 4 } } } } as never,
  });
  return (res.body.aggregations as { c: { buckets: { key: string }[] } }).c.buckets.map((b) => b.key);
}

async function timed(base: string, key: string, path: string): Promise<number> {
  const r = await apiCall(`${base}${path}`, key);
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.ms;
}

export async function geoCosts(client: Client, index: string, base: string, key: string, samples = 200): Promise<Record<string, number>> {
  const located = (await client.count({ index, body: { query: { exists: { field: 'location' } } } as never })).body.count;
  const points = await centres(client, index, samples * 2);
  if (points.length < 20) throw new Error(`only ${points.length} located certificates: load the parcel files first`);
  const warm = points.slice(samples);
  const measured = points.slice(0, samples);
  const radius = (p: Located) => `/api/v1/certificates/search?status=sold&near=${p.lat},${p.lon}&radius=3mi`;
  const plain = (_p: Located) => '/api/v1/certificates/search?status=sold';
  for (const p of warm) {
    await timed(base, key, radius(p));
    await timed(base, key, plain(p));
  }
  const withGeo: number[] = [];
  const without: number[] = [];
  for (const p of measured) {
    withGeo.push(await timed(base, key, radius(p)));
    without.push(await timed(base, key, plain(p)));
  }
  const out: Record<string, number> = {
    located,
    radiusP50: round(percentile(withGeo, 50)),
    plainP50: round(percentile(without, 50)),
  };
  out.radiusRatio = Math.round((out.radiusP50! / out.plainP50!) * 100) / 100;
  console.log(
    `radius search (3 mi, status=sold) p50 ${out.radiusP50} ms, p99 ${round(percentile(withGeo, 99))} ms; the same search without the geo filter p50 ${out.plainP50} ms, p99 ${round(percentile(without, 99))} ms; ratio ${out.radiusRatio} (target at most 1.3) over ${located} located certificates`,
  );
  for (const county of await counties(client, index)) {
    const path = `/api/v1/certificates/geo-grid?zoom=10&county=${county}`;
    for (let i = 0; i < 5; i++) await timed(base, key, path);
    // The same cells asked again would come from the shard request cache (a size-0 search): each
    // call is timed with that cache cleared, as a first look at a county is.
    const times: number[] = [];
    for (let i = 0; i < 41; i++) {
      await client.indices.clearCache({ index, request: true });
      times.push(await timed(base, key, path));
    }
    const p50 = round(percentile(times, 50));
    out[`geoGrid10_${county}`] = p50;
    console.log(
      `geo-grid zoom 10 over ${county}, request cache cleared before each call: p50 ${p50} ms, max ${round(Math.max(...times))} ms (target p50 under 100 ms)`,
    );
  }
  return out;
}
