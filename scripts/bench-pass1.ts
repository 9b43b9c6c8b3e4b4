/**
 * The worker's pass 1 alone (a script, not a test): a generated set read, built and spooled
 * file by file exactly as a job's pass 1 does (certificate-file.ts -> two-pass-load.ts
 * validateFile), with no engine, queue or SQLite beside it. It prints the CPU per row of this
 * process, which on a shared machine moves far less than wall time, so two versions of the
 * indexer can be compared by running this alternately from each.
 *
 *   npx tsx scripts/bench-pass1.ts --certificates 300000 --rounds 3
 *   npx tsx scripts/bench-pass1.ts --dir /tmp/set     (reuse a set written before)
 *
 * It runs itself again under the heap flags of bin/taxcert.js's shebang, which the worker runs
 * with: the collector's share of a row depends on them (from 1 to 4 us), so a run without them
 * would measure another process.
 */
import type { Sql } from '../services/control/db/sql.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { generateFixtures } from '../services/generator/generate-fixtures.ts';
import { certificateFile } from '../indexer/certificates/certificate-file.ts';
import { createHolderMemory } from '../indexer/holder-memory.ts';
import { validateFile } from '../indexer/load/two-pass-load.ts';
import type { Client } from '@opensearch-project/opensearch';
import { manifestJobs } from '../services/process/manifest-jobs.ts';
import { loadHolderAliases } from '../services/domain/holder-groups.ts';
import { loadRegistry } from '../services/domain/registry.ts';
import { shebangFlags } from './lib/stack-process.ts';

if (process.env.BENCH_PASS1_FLAGS !== '1') {
  const run = spawnSync(process.execPath, [...shebangFlags(), ...process.execArgv, process.argv[1]!, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_PASS1_FLAGS: '1' },
  });
  process.exit(run.status ?? 1);
}

console.error(
  `node ${process.execArgv.filter((f) => f.startsWith('--') && !f.startsWith('--import') && !f.startsWith('--require')).join(' ')}`,
);

const opts = new Command('bench-pass1')
  .option('--certificates <n>', 'certificates to generate', '300000')
  .option('--dir <dir>', 'a generated set to reuse (written there when it has no manifest yet)')
  .option('--rounds <n>', 'times the whole set is read', '3')
  .parse()
  .opts<{ certificates: string; dir?: string; rounds: string }>();

const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'taxcert-pass1-'));
const manifest = join(dir, 'manifest.json');
if (!existsSync(manifest)) await generateFixtures({ out: dir, certificates: Number(opts.certificates), seed: 4242, today: '2026-11-22' });
const { jobs } = manifestJobs(manifest);
// Pass 1 touches neither the engine nor SQLite: the feed and bookkeeping they serve are not called.
// The alias file is loaded once and the holder memories built once per round, as a worker that
// loads the set once builds them (worker.ts): a round starts with memories as empty as a new worker's.
const holderAliases = loadHolderAliases();
const deps = {
  opensearch: undefined as unknown as Client,
  sql: undefined as unknown as Sql,
  registry: loadRegistry(),
  prefix: 'pass1',
  parcelBaseUrl: 'https://parcels.example.test',
  holderAliases,
};
const at = '2026-11-22T12:00:00.000Z';
const perRound: number[] = [];
try {
  for (let round = 0; round < Number(opts.rounds); round++) {
    let rows = 0;
    const before = process.cpuUsage();
    const holderMemory = createHolderMemory(holderAliases);
    for (const [i, job] of jobs.entries()) {
      const file = certificateFile({ ...job, jobId: `pass1-${round}-${i}` }, { ...deps, holderMemory }, at);
      const validated = await validateFile(job.file, `pass1-${round}-${i}`, file.format, {
        opensearch: deps.opensearch,
        prefix: deps.prefix,
      });
      rows += validated.rowsRead;
      await validated.discard();
    }
    const used = process.cpuUsage(before);
    perRound.push((used.user + used.system) / rows);
    console.error(`round ${round + 1}: ${rows} rows, ${perRound.at(-1)!.toFixed(1)} us CPU per row`);
  }
} finally {
  if (!opts.dir) rmSync(dir, { recursive: true, force: true });
}
const sorted = [...perRound].sort((a, b) => a - b);
console.log(
  JSON.stringify({
    rounds: perRound.map((x) => Math.round(x * 10) / 10),
    medianUsPerRow: Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10,
  }),
);
