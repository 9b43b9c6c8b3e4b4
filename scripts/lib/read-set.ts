import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { CertificateRecord } from '../../services/domain/records.ts';
import type { Registry } from '../../services/domain/registry.ts';
import { createHolderIds } from '../../services/domain/ids.ts';
import { readManifest } from '../../services/domain/manifest.ts';
import { adapterFor } from '../../indexer/adapters/index.ts';
import type { RowProblem } from '../../indexer/adapters/types.ts';
import { GZIP_SUFFIX } from '../../indexer/load/two-pass-load.ts';
import { buildCertificate } from '../../indexer/certificates/build-certificate.ts';
import type { CountyParcelRow } from '../../services/generator/check-data.ts';
import { PARCELS_HEADER } from '../../services/formats/parcels-csv.ts';
import { parse } from 'csv-parse';

/**
 * Reads a written data set (a folder with manifest.json) back the way the worker
 * does, file by file through each platform's adapter and the certificate builder,
 * without any service. Used to check a set as a customer would receive it.
 */

export interface SetRow {
  /** The record, or null when the row was refused. */
  record: CertificateRecord | null;
  where: string;
  /** Why the row was refused (describeProblem makes each readable). */
  reasons: RowProblem[];
}

export interface WrittenSet {
  /** YYYY-MM-DD the set was generated for (its manifest's generated_at). */
  asOf: string | null;
  rows(): AsyncGenerator<SetRow>;
  /** The rows of the set's parcel files (none when its manifest lists none), as written. */
  parcelRows(): AsyncGenerator<CountyParcelRow>;
}

/** The file's text, gunzipped when its name ends in .gz (as the worker reads it). */
function openText(path: string): Readable {
  const bytes = createReadStream(path);
  return path.endsWith(GZIP_SUFFIX) ? bytes.pipe(createGunzip()) : bytes;
}

export function readWrittenSet(dir: string, registry: Registry, parcelBaseUrl = 'https://parcels.taxcert.dev/api/v1/parcels'): WrittenSet {
  const { manifest } = readManifest(join(dir, 'manifest.json'));
  const asOf = manifest.generated_at?.slice(0, 10) ?? null;
  return {
    asOf,
    async *rows() {
      for (const file of manifest.files) {
        const county = registry.county(file.county);
        const channel = county ? registry.channelForVendor(file.vendor, county) : null;
        const adapter = channel ? adapterFor(channel.format) : undefined;
        if (!county || !channel || !adapter) throw new Error(`${file.path}: no adapter for ${file.vendor} in ${file.county}`);
        const ctx = {
          county,
          counties: registry.counties,
          taxYear: file.tax_year,
          vendor: channel.certificateVendor,
          parcelBaseUrl,
          ingestedAt: `${asOf ?? '1970-01-01'}T00:00:00.000Z`,
          holderIds: createHolderIds(),
        };
        for await (const row of adapter.rows(openText(file.path), { county, counties: registry.counties, taxYear: file.tax_year })) {
          const { input, reasons } = adapter.toInput(row);
          const built = buildCertificate(input, reasons, ctx);
          const where = `${file.path}:${row.line}`;
          yield built.ok ? { record: built.record, where, reasons: [] } : { record: null, where, reasons: built.reasons };
        }
      }
    },
    async *parcelRows() {
      for (const file of manifest.parcels ?? []) {
        const lines = openText(file.path).pipe(parse({ columns: true }));
        let header = true;
        for await (const cells of lines as AsyncIterable<Record<string, string>>) {
          if (header) {
            const names = Object.keys(cells).join(',');
            if (names !== PARCELS_HEADER.join(',')) throw new Error(`${file.path}: header ${names} is not parcels-csv's`);
            header = false;
          }
          yield {
            county: file.county,
            row: {
              county_number: cells.county_number!,
              parcel_id: cells.parcel_id!,
              assessment_year: Number(cells.assessment_year),
              just_value: Number(cells.just_value),
              land_sqft: Number(cells.land_sqft),
              use_code: cells.use_code!,
              homestead: cells.homestead === 'Y',
              situs_address: cells.situs_address!,
              situs_city: cells.situs_city!,
              situs_zip: cells.situs_zip!,
              lat: Number(cells.lat),
              lon: Number(cells.lon),
            },
          };
        }
      }
    },
  };
}
