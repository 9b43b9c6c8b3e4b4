import type { Writable } from 'node:stream';
import type { ParcelRow } from '../generate-state.ts';
import { PARCELS_HEADER } from '../../formats/parcels-csv.ts';
import { csvField, Sink } from './sink.ts';

/**
 * The parcels-csv format (docs/data-formats.md): one county's assessment roll joined
 * with parcel centroids. Comma separated, LF, quoted only where needed; homestead Y/N.
 */

export function parcelsCsvLine(r: ParcelRow): string {
  return `${[
    r.county_number,
    csvField(r.parcel_id),
    String(r.assessment_year),
    String(r.just_value),
    String(r.land_sqft),
    r.use_code,
    r.homestead ? 'Y' : 'N',
    csvField(r.situs_address),
    csvField(r.situs_city),
    r.situs_zip,
    String(r.lat),
    String(r.lon),
  ].join(',')}\n`;
}

/** Writes the header and every row without ending `out`; resolves with the number of rows. */
export async function writeParcelsCsv(rows: Iterable<ParcelRow>, out: Writable): Promise<number> {
  const sink = new Sink(out);
  await sink.push(`${PARCELS_HEADER.join(',')}\n`);
  let n = 0;
  for (const r of rows) {
    await sink.push(parcelsCsvLine(r));
    n++;
  }
  await sink.flush();
  return n;
}
