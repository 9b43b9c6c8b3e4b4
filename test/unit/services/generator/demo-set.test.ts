import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeProblem } from '../../../../indexer/adapters/types.ts';
import { checkData, type CountyParcelRow } from '../../../../services/generator/check-data.ts';
import { DEMO_SET } from '../../../../services/generator/demo-set.ts';
import { generateFixtures } from '../../../../services/generator/generate-fixtures.ts';
import { generateState } from '../../../../services/generator/generate-state.ts';
import { readWrittenSet } from '../../../../scripts/lib/read-set.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { loadRegistry } from '../../../../services/domain/registry.ts';

/** The demo set in fixtures/ is the current generator's output, and reads back as a set an investor trusts. */
const demo = fileURLToPath(new URL('../../../../fixtures/demo', import.meta.url));

function files(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else out.set(relative(dir, path), readFileSync(path));
    }
  };
  walk(dir);
  return out;
}

describe('fixtures/demo', () => {
  const root = mkdtempSync(join(tmpdir(), 'taxcert-demo-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('is byte for byte what scripts/make-demo-fixtures.ts writes today', async () => {
    await generateFixtures({ out: root, ...DEMO_SET });
    const fresh = files(root);
    const shipped = files(demo);
    expect([...shipped.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [path, bytes] of fresh)
      expect(shipped.get(path)?.equals(bytes), `${path} is stale: run scripts/make-demo-fixtures.ts`).toBe(true);
  });

  it('is a market worth analysing: 50,000+ certificates, every certificate-level county with its parcels, several tax years, at most 5 MB', () => {
    const manifest = JSON.parse(readFileSync(join(demo, 'manifest.json'), 'utf8')) as {
      certificates: number;
      files: { county: string; tax_year: number }[];
      parcels: { county: string }[];
    };
    expect(manifest.certificates).toBeGreaterThanOrEqual(50_000);
    const levelCounties = generateState({ ...DEMO_SET, certificates: 0 }).counties.filter((c) => c.coverage === 'certificate_level');
    expect(new Set(manifest.files.map((f) => f.county))).toEqual(new Set(levelCounties.map((c) => c.county.slug)));
    expect(new Set(manifest.files.map((f) => f.tax_year)).size).toBeGreaterThanOrEqual(5);
    // A parcel file per county, for the map and the parcel filters.
    expect(new Set(manifest.parcels.map((f) => f.county))).toEqual(new Set(levelCounties.map((c) => c.county.slug)));
    const bytes = [...files(demo).values()].reduce((n, b) => n + b.length, 0);
    expect(bytes).toBeLessThanOrEqual(5 * 1024 * 1024);
  });

  it('reads back through the adapters with no row refused and every investor check passing', async () => {
    const set = readWrittenSet(demo, loadRegistry());
    const records: CertificateRecord[] = [];
    const refused: string[] = [];
    for await (const row of set.rows()) {
      if (row.record) records.push(row.record);
      else refused.push(`${row.where}: ${row.reasons.map(describeProblem).join('; ')}`);
    }
    expect(refused).toEqual([]);
    expect(records).toHaveLength(DEMO_SET.certificates);
    const parcels: CountyParcelRow[] = [];
    for await (const p of set.parcelRows()) parcels.push(p);
    const report = checkData(records, set.asOf!, parcels);
    expect(report.checks.filter((c) => c.bad > 0)).toEqual([]);
    // The parcel files are there and were checked (a set without them has no parcel checks).
    expect(report.checks.find((c) => c.name.startsWith("every certificate's parcel"))?.of).toBeGreaterThan(20_000);
  });
});
