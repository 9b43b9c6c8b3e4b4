#!/usr/bin/env -S node --max-old-space-size=320 --max-semi-space-size=64
// Runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
// The old space is bounded on purpose: the worker streams every file and keeps ~30 MB live,
// and without a bound V8 lets garbage pile up to whatever the machine has. The young space is
// four times V8's default: a row's objects then die before the next scavenge instead of being
// copied. Doubling it cut the worker's CPU per row by a fifth (29 -> 23 us at 1M rows, +30 MB
// RSS); doubling it again (32 -> 64 MB) cut the npm start stack's by another fifth while it
// loads a set (57-65 -> 46-51 us at 300,000 rows, scavenges 2.3-5.0 s -> 0.5-1.5 s, +40 MB
// RSS). 128 MB gained nothing more for another 20-100 MB.
import { register } from 'tsx/esm/api';

register();
await import('../services/cli/index.ts');
