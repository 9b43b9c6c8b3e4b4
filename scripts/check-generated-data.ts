/**
 * Checks a certificate data set the way an experienced Florida investor reads it
 * (issue 12 items 13-19) and prints the checks as figures: sales by June 1,
 * escheated lands, expired redemptions, face composition, holder mix, ZIP/county
 * match, section-township-range against the parcel id. Exits 1 when a check fails.
 *
 *   npm run check:data                                   (generates 200,000 certificates)
 *   npm run check:data -- --certificates 50000 --seed 7 --today 2026-05-20
 *   npm run check:data -- --dir fixtures/demo            (reads a written set through the adapters)
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { adapterFor } from '../indexer/adapters/index.ts';
import { buildCertificate } from '../indexer/build-certificate.ts';
import { type DataChecker, createDataChecker, formatReport } from '../indexer/generator/check-data.ts';
import { generateState } from '../indexer/generator/generate-state.ts';
import { readManifest } from '../indexer/manifest.ts';
import { createHolderIds } from '../services/domain/ids.ts';
import { loadRegistry } from '../services/domain/registry.ts';

const opts = new Command('check-generated-data')
  .option('--certificates <n>', 'certificates to generate', '200000')
  .option('--seed <n>', 'generator seed', '20261122')
  .option('--today <date>', 'as-of date of the generated market (YYYY-MM-DD)', '2026-11-22')
  .option('--dir <path>', 'read the set written in this folder (manifest.json) instead of generating one')
  .parse()
  .opts<{ certificates: string; seed: string; today: string; dir?: string }>();

/** Reads every file of a written set as the worker would; returns the rows refused on the way. */
async function readSet(dir: string, checker: DataChecker): Promise<{ refused: number; examples: string[] }> {
  const registry = loadRegistry();
  const { manifest } = readManifest(join(dir, 'manifest.json'));
  let refused = 0;
  const examples: string[] = [];
  for (const file of manifest.files) {
    const county = registry.county(file.county);
    const channel = county && registry.channelForVendor(file.vendor, county);
    const adapter = channel && adapterFor(channel.format);
    if (!county || !channel || !adapter) throw new Error(`${file.path}: no adapter for ${file.vendor} in ${file.county}`);
    const ctx = {
      county,
      taxYear: file.tax_year,
      vendor: channel.certificateVendor,
      parcelBaseUrl: 'https://parcels.taxcert.dev/api/v1/parcels',
      ingestedAt: `${manifest.generated_at?.slice(0, 10) ?? '1970-01-01'}T00:00:00.000Z`,
      holderIds: createHolderIds(),
    };
    for await (const row of adapter.rows(createReadStream(file.path), { county, taxYear: file.tax_year })) {
      const { input, reasons } = adapter.toInput(row);
      const built = buildCertificate(input, reasons, ctx);
      if (built.ok) checker.add(built.record);
      else if (++refused <= 3) examples.push(`${file.path}:${row.line}: ${built.reasons.join('; ')}`);
    }
  }
  return { refused, examples };
}

const started = performance.now();
let asOf = opts.today;
let refusedLine = '';
if (opts.dir) {
  const { manifest } = readManifest(join(opts.dir, 'manifest.json'));
  asOf = manifest.generated_at?.slice(0, 10) ?? opts.today;
  const checker = createDataChecker(asOf);
  const { refused, examples } = await readSet(opts.dir, checker);
  refusedLine = `rows refused by the canonical schema: ${refused}${examples.map((e) => `\n  e.g. ${e}`).join('')}`;
  const report = checker.report();
  console.log(`${opts.dir}: ${formatReport(report)}\n${refusedLine}`);
  process.exitCode = report.checks.some((c) => c.bad > 0) || refused > 0 ? 1 : 0;
} else {
  const state = generateState({ certificates: Number(opts.certificates), seed: Number(opts.seed), today: asOf });
  const checker = createDataChecker(asOf);
  for (const r of state.allRecords()) checker.add(r);
  const report = checker.report();
  console.log(`generated (seed ${opts.seed}): ${formatReport(report)}`);
  process.exitCode = report.checks.some((c) => c.bad > 0) ? 1 : 0;
}
console.log(`\nchecked in ${((performance.now() - started) / 1000).toFixed(1)} s`);
