import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { FormatWriter } from '../../../../services/generator/writers/format-writer.ts';
import { FixtureError, generateFixtures } from '../../../../services/generator/generate-fixtures.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';

/** Stands in for the platform writers: one JSON record per line, so these tests check the data set, not a format. */
const ndjson = (format: string): FormatWriter => ({
  format,
  async write(records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>, out: Writable) {
    let n = 0;
    for await (const r of records) {
      out.write(`${JSON.stringify(r)}\n`);
      n++;
    }
    return n;
  },
});

const root = mkdtempSync(join(tmpdir(), 'generate-fixtures-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const options = (out: string) => ({ out: join(root, out), certificates: 900, seed: 11, today: '2026-11-22', writerFor: ndjson });

function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files[path.slice(dir.length + 1)] = readFileSync(path, 'utf8');
    }
  return files;
}

describe('generateFixtures', () => {
  it('writes one file per county and tax year, a parcel file per county, a manifest and sources, identically for the same seed', async () => {
    const summary = await generateFixtures(options('a'));
    expect(summary).toMatchObject({ files: 88, certificates: 900, counties: 8 });
    expect(summary.parcels).toBeGreaterThan(400);
    await generateFixtures(options('b'));
    expect(tree(join(root, 'a'))).toEqual(tree(join(root, 'b')));
  });

  it('lists every file in the manifest with its channel and row count', () => {
    const dir = join(root, 'a');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ generated_at: '2026-11-22T00:00:00.000Z', seed: 11, certificates: 900, sources: 'sources.json' });
    expect(manifest.files).toHaveLength(88);
    expect(manifest.parcels).toHaveLength(8);
    expect(manifest.parcels).toContainEqual(
      expect.objectContaining({ path: 'gulf/parcels-2025.csv', county: 'gulf', assessment_year: 2025 }),
    );
    expect(manifest.files).toContainEqual({
      path: 'miami-dade/2025.jsonl',
      vendor: 'certbid',
      county: 'miami-dade',
      tax_year: 2025,
      rows: expect.any(Number),
    });
    expect(manifest.files).toContainEqual(expect.objectContaining({ path: 'duval/2015.txt', vendor: 'county_local' }));
    expect(manifest.files).toContainEqual(expect.objectContaining({ path: 'hillsborough/2019.txt', vendor: 'taxgavel' }));
    for (const f of manifest.files) {
      const lines = readFileSync(join(dir, f.path), 'utf8').trim().split('\n');
      expect(lines).toHaveLength(f.rows);
      const first = JSON.parse(lines[0]!) as CertificateRecord;
      expect([first.county_slug, first.tax_year]).toEqual([f.county, f.tax_year]);
    }
  });

  it('writes source rows for each file and active rows without files for vendor-tracked counties', () => {
    const sources = JSON.parse(readFileSync(join(root, 'a', 'sources.json'), 'utf8'));
    expect(sources).toHaveLength(88 + 8);
    // Vendor-tracked counties have no file in the manifest.
    const manifest = JSON.parse(readFileSync(join(root, 'a', 'manifest.json'), 'utf8'));
    const withFile = new Set(manifest.files.map((f: { county: string; tax_year: number }) => `${f.county}/${f.tax_year}`));
    const tracked = sources.filter((s: { countySlug: string; taxYear: number }) => !withFile.has(`${s.countySlug}/${s.taxYear}`));
    expect(tracked).toHaveLength(8);
    // We do not invent government URLs: no download URL anywhere.
    for (const s of sources) expect(s.downloadUrl).toBeNull();
    for (const s of tracked) expect(s).toMatchObject({ taxYear: 2025, active: true, sourceKind: 'cert_sale_portal' });
    expect(sources).toContainEqual({
      countySlug: 'duval',
      taxYear: 2020,
      vendor: 'county_local',
      saleUrl: null,
      downloadUrl: null,
      sourceKind: 'bulk_download',
      requiresLogin: false,
      active: true,
      notes: expect.stringMatching(/^\d+ certificates; sale 2021-05-\d\d to 2021-(05-\d\d|06-01)$/),
    });
    expect(sources).toContainEqual(
      expect.objectContaining({
        countySlug: 'miami-dade',
        taxYear: 2024,
        vendor: 'certbid',
        saleUrl: 'https://www.certbid.com/fl/miamidade',
        requiresLogin: true,
      }),
    );
  });

  it('refuses before writing anything when a format has no writer', async () => {
    const out = join(root, 'missing');
    const err = await generateFixtures({ ...options('missing'), writerFor: (f) => (f === 'taxgavel-fixed' ? undefined : ndjson(f)) }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(FixtureError);
    expect(err.code).toBe('writer_missing');
    expect(() => readdirSync(out)).toThrow();
  });
});
