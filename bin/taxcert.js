#!/usr/bin/env -S node --max-old-space-size=320 --max-semi-space-size=64 --heap-growing-percent=300 --no-allocation-site-pretenuring
// Runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
// The old space is bounded on purpose: the worker streams every file and keeps ~30 MB live,
// and without a bound V8 lets garbage pile up to whatever the machine has. The young space is
// four times V8's default: a row's objects then die before the next scavenge instead of being
// copied. Doubling it cut the worker's CPU per row by a fifth (29 -> 23 us at 1M rows, +30 MB
// RSS); doubling it again (32 -> 64 MB) cut the npm start stack's by another fifth while it
// loads a set (57-65 -> 46-51 us at 300,000 rows, scavenges 2.3-5.0 s -> 0.5-1.5 s, +40 MB
// RSS). 128 MB gained nothing more for another 20-100 MB.
// With a young generation that large, V8 starts marking the old one whenever the room left under
// its limit is smaller than the young generation, and its own limit (live heap times a factor
// it lowers for a small ceiling) kept that room small: the npm start stack ran 60-80 full
// collections that freed a few MB each while loading 1M rows. A fixed factor of 4 leaves the room.
// Allocation-site pretenuring is off: with it, some processes (not others, on the same files)
// promoted ten times the bytes per scavenge and spent three times as long collecting (pass 1 at
// 20-24 us a row instead of 16-18); without it, none did in ten runs. Together: 27-30 -> 22 us
// of stack CPU per row at 1M, 60-80 -> 26 full collections, peak RSS 345 -> 389 MB
// (scripts/bench-pass1.ts and bench:ingest; docs/benchmarks-journal.md, fifth round).
//
// Those flags suit ingest, not a bulk build: a build's young objects are pages of rows that live
// while gzip and DuckDB take them, so a 64 MB semi-space fills, and with a growth factor of 4 the
// old space grows far past the ~30-50 MB a build keeps live. `taxcert bulk ...` therefore runs as
// a child of this process with flags of its own: a 16 MB semi-space and a 256 MB old space at
// V8's own growth. A 1M build's builder peaked at 362-433 MB with them (490 MB with the ingest
// flags and a 16 MB semi-space, 541-593 MB with the ingest flags as they are) and took 36-39 s
// instead of 31-32 s; this launcher adds 42 MB (docs/benchmarks.md, bulk files).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BULK_FLAGS = ['--max-old-space-size=256', '--max-semi-space-size=16'];

if (process.argv[2] === 'bulk' && process.env.TAXCERT_BULK_CHILD !== '1') {
  const child = spawn(process.execPath, [...BULK_FLAGS, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TAXCERT_BULK_CHILD: '1' },
  });
  const forward = (signal) => child.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code ?? 1);
    // Dies of the child's signal, so whoever started `taxcert` sees how the build ended.
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.off(s, forward);
    process.kill(process.pid, signal);
  });
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../services/cli/index.ts');
}
