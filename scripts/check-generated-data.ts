/**
 * Checks a certificate data set the way an experienced Florida investor reads it and
 * prints the checks as figures: sales by June 1, escheated lands, expired
 * redemptions, face composition, holder mix, ZIP/county match, section-township-range
 * against the parcel id, the parcel files (centroids near their county, situs, homestead and vacant shares), the redemption curve and the deed-application share of cohorts 7
 * years old. Exits 1 when a check fails.
 *
 *   npm run check:data                                   (generates 200,000 certificates)
 *   npm run check:data -- --certificates 50000 --seed 7 --today 2026-05-20
 *   npm run check:data -- --dir fixtures/demo            (reads a written set through the adapters)
 */
import { Command } from 'commander';
import { createDataChecker, formatReport } from '../services/generator/check-data.ts';
import { generateState } from '../services/generator/generate-state.ts';
import { describeProblem } from '../indexer/adapters/types.ts';
import { readWrittenSet } from './lib/read-set.ts';
import { loadRegistry } from '../services/domain/registry.ts';

const opts = new Command('check-generated-data')
  .option('--certificates <n>', 'certificates to generate', '200000')
  .option('--seed <n>', 'generator seed', '20261122')
  .option('--today <date>', 'as-of date of the generated market (YYYY-MM-DD)', '2026-11-22')
  .option('--dir <path>', 'read the set written in this folder (manifest.json) instead of generating one')
  .parse()
  .opts<{ certificates: string; seed: string; today: string; dir?: string }>();

const started = performance.now();
let asOf = opts.today;
if (opts.dir) {
  const set = readWrittenSet(opts.dir, loadRegistry());
  asOf = set.asOf ?? opts.today;
  const checker = createDataChecker(asOf);
  let refused = 0;
  const examples: string[] = [];
  for await (const row of set.rows()) {
    if (row.record) checker.add(row.record);
    else if (++refused <= 3) examples.push(`${row.where}: ${row.reasons.map(describeProblem).join('; ')}`);
  }
  for await (const p of set.parcelRows()) checker.addParcel(p.county, p.row);
  const report = checker.report();
  console.log(`${opts.dir}: ${formatReport(report)}`);
  console.log(`rows refused by the canonical schema: ${refused}${examples.map((e) => `\n  e.g. ${e}`).join('')}`);
  process.exitCode = report.checks.some((c) => c.bad > 0) || refused > 0 ? 1 : 0;
} else {
  const state = generateState({ certificates: Number(opts.certificates), seed: Number(opts.seed), today: asOf });
  const checker = createDataChecker(asOf);
  for (const r of state.allRecords()) checker.add(r);
  for (const file of state.parcelFiles) for (const row of state.parcelRows(file)) checker.addParcel(file.county.slug, row);
  const report = checker.report();
  console.log(`generated (seed ${opts.seed}): ${formatReport(report)}`);
  process.exitCode = report.checks.some((c) => c.bad > 0) ? 1 : 0;
}
console.log(`\nchecked in ${((performance.now() - started) / 1000).toFixed(1)} s`);
