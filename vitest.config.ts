import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The test files that declare `// @module-tag <tag>` (vitest's own file-level tag comment, read
 * the way vitest reads it), so a project selects its files by what they say about themselves
 * rather than by a list of paths that goes stale when a file moves.
 */
function filesTagged(tag: string): string[] {
  const declares = new RegExp(`(//|\\*)\\s*@module-tag\\s+${tag}(?![\\w/-])`);
  return readdirSync(`${root}test`, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `test/${file}`)
    .filter((file) => declares.test(readFileSync(`${root}${file}`, 'utf8')))
    .sort();
}

/**
 * Starts (or finds) OpenSearch, Redis and PostgreSQL and provides `opensearchUrl`. Only the
 * projects that talk to real services list it: a unit run starts nothing. Several projects may
 * list it; the second finds the services answering and starts nothing more.
 */
const services = ['test/helpers/global-setup.ts'];

/**
 * The projects (docs/development.md gives each one's time and budget). `npm test` runs unit,
 * integration and slow, then postgres; `vitest run --project unit` runs one. Every project extends
 * this file's options (timeouts, workers, tags); nothing is set here that a project would merge
 * into its own lists (include, globalSetup), since vitest concatenates those.
 */
export default defineConfig({
  test: {
    // Integration files share one OpenSearch node on 2 cores; each uses its own prefix.
    fileParallelism: true,
    maxWorkers: 2,
    // Generous: CI shares a 2-core VM whose CPU can be stolen by neighbours; a slow run must not fail.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    tags: [{ name: 'postgres', description: 'a control-plane contract test: the postgres project runs it again on PostgreSQL' }],
    projects: [
      // Pure logic: parsers, builders, mappers, the generator, config. No service, no network.
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      // The real OpenSearch, Redis and control plane (SQLite, or PostgreSQL when TEST_DATABASE_URL
      // is already set): ingest, the API, the CLI, the worker.
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: services,
        },
      },
      // Minutes each: a real browser, and a three-node cluster started and stopped by the test.
      {
        extends: true,
        test: {
          name: 'slow',
          include: ['test/slow/**/*.test.ts'],
          globalSetup: services,
        },
      },
      // The control-plane contract tests again, on PostgreSQL: every file that declares
      // `// @module-tag postgres`. Each test context gets a database of its own on the server
      // (test/helpers/control.ts).
      {
        extends: true,
        test: {
          name: 'postgres',
          include: filesTagged('postgres'),
          globalSetup: services,
          env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' },
        },
      },
    ],
  },
});
