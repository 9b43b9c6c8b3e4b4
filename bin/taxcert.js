#!/usr/bin/env -S node --max-old-space-size=320
// Runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
// The heap is bounded on purpose: the worker streams every file, and without a bound V8
// lets garbage pile up to whatever the machine has (RSS grew with file size, not with data).
import { register } from 'tsx/esm/api';

register();
await import('../services/cli/index.ts');
