#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';

register();
await import('../services/cli/index.ts');
