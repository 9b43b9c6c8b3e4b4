import { defineConfig } from 'vitest/config';

/**
 * Starts (or finds) OpenSearch, Redis and PostgreSQL and provides `opensearchUrl`. Only the
 * projects that talk to real services list it: a unit run starts nothing. Several projects may
 * list it; the second finds the services answering and starts nothing more.
 */
const services = ['test/helpers/global-setup.ts'];

/**
 * Three projects (docs/development.md gives each one's time and budget): `vitest run` runs them
 * all, `vitest run --project unit` one of them. Every project extends this file's options
 * (timeouts, workers); none is set here that a project would merge into its own lists (include,
 * globalSetup), since vitest concatenates those.
 */
export default defineConfig({
  test: {
    // Integration files share one OpenSearch node on 2 cores; each uses its own prefix.
    fileParallelism: true,
    maxWorkers: 2,
    // Generous: CI shares a 2-core VM whose CPU can be stolen by neighbours; a slow run must not fail.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    projects: [
      // Pure logic: parsers, builders, mappers, the generator, config. No service, no network.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // The real OpenSearch, Redis and control plane: ingest, the API, the CLI, the worker.
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ['test/integration/cluster/**'],
          globalSetup: services,
        },
      },
      // Minutes each: a real browser, and a three-node cluster started and stopped by the test.
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/browser/**/*.test.ts', 'test/integration/cluster/**/*.test.ts'],
          globalSetup: services,
        },
      },
    ],
  },
});
