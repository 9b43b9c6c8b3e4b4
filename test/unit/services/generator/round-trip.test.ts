import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { adapterFor } from '../../../../indexer/adapters/index.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import { generateState } from '../../../../services/generator/generate-state.ts';
import { writerFor } from '../../../../services/generator/writers/index.ts';
import { createHolderIds } from '../../../../services/domain/ids.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

/**
 * Generated records written in each county's platform format and read back by
 * that format's adapter must come out identical: the generator's awkward values
 * (multi-line legal descriptions, commas, apostrophes, 0 percent bids, county-held
 * rows) are what the formats must carry.
 */
const registry = loadRegistry();
const state = generateState({ certificates: 6000, seed: 99, today: '2026-11-22', registry });
const PARCEL_BASE = 'https://parcels.taxcert.dev/api/v1/parcels';
const holderIds = createHolderIds();

describe.each(state.files.filter((f) => f.taxYear === 2019 || f.taxYear === 2025))('$county.slug $taxYear', (file) => {
  const writer = writerFor(file.channel.format);
  const adapter = adapterFor(file.channel.format);
  it.runIf(writer && adapter)(`round-trips through ${file.channel.format}`, async () => {
    const ctx = { county: file.county, counties: registry.counties, taxYear: file.taxYear };
    const chunks: Buffer[] = [];
    const out = new PassThrough();
    out.on('data', (c: Buffer) => chunks.push(c));
    expect(await writer!.write(state.records(file), out, ctx)).toBe(file.rows);
    out.end();
    const back: CertificateRecord[] = [];
    for await (const row of adapter!.rows(Readable.from([Buffer.concat(chunks)]), ctx)) {
      const { input, reasons } = adapter!.toInput(row);
      const built = buildCertificate(input, reasons, {
        ...ctx,
        vendor: file.channel.certificateVendor,
        parcelBaseUrl: PARCEL_BASE,
        holderIds,
        ingestedAt: '2026-11-22T00:00:00.000Z',
      });
      expect(built).toMatchObject({ ok: true });
      if (built.ok) back.push(built.record);
    }
    expect(back).toEqual([...state.records(file)]);
  });
});
