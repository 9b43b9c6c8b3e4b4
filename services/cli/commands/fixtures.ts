import { resolve } from 'node:path';
import type { Command } from 'commander';
import { generateFixtures } from '../../generator/generate-fixtures.ts';
import { wantsJson } from '../json-flag.ts';
import { CliError, createOutput } from '../output.ts';

/** Fixed, so the same seed gives the same files on any day; --as-of moves the market in time. */
export const DEFAULT_AS_OF = '2026-11-22';

export function fixturesCommand(program: Command): void {
  const fixtures = program.command('fixtures').description('synthetic portal export files for development, tests and benchmarks');
  fixtures
    .command('generate')
    .description('write a realistic Florida data set: one export file per county and tax year, manifest.json and sources.json')
    .requiredOption('--out <dir>', 'output folder (created if missing)')
    .option('--certificates <n>', 'number of certificates', '20000')
    .option('--seed <n>', 'random seed: same seed, same files', '1')
    .option('--as-of <yyyy-mm-dd>', 'the day the market is generated as of (statuses, sale status)', DEFAULT_AS_OF)
    .action(async (opts: { out: string; certificates: string; seed: string; asOf: string }, command: Command) => {
      const certificates = Number(opts.certificates);
      const seed = Number(opts.seed);
      if (!Number.isInteger(certificates) || certificates < 1 || certificates > 50_000_000)
        throw new CliError(`--certificates must be an integer 1-50000000; got "${opts.certificates}"`, 2);
      if (!Number.isInteger(seed) || seed < 0 || seed > 2 ** 32 - 1)
        throw new CliError(`--seed must be an integer 0-4294967295; got "${opts.seed}"`, 2);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(opts.asOf) || Number.isNaN(Date.parse(opts.asOf)))
        throw new CliError(`--as-of must be a date YYYY-MM-DD; got "${opts.asOf}"`, 2);
      const out = resolve(opts.out);
      const started = Date.now();
      const summary = await generateFixtures({ out, certificates, seed, today: opts.asOf });
      const seconds = (Date.now() - started) / 1000;
      createOutput(wantsJson(command)).result(
        { ...summary, out, manifest: resolve(out, 'manifest.json'), seconds },
        (r) =>
          `wrote ${r.certificates} certificates in ${r.files} files for ${r.counties} counties (and ${r.parcels} parcel rows) to ${r.out} (${r.seconds.toFixed(1)} s)\nload them with: npx taxcert ingest --manifest ${r.manifest} --wait`,
      );
    });
}
