import { loadRegistry } from '../../services/domain/registry.ts';

/** The repo's registry, loaded once per test file as a process loads it once at start-up. */
export const registry = loadRegistry();
