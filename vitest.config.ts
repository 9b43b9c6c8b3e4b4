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

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    // Integration files share one OpenSearch node on 2 cores; each uses its own prefix.
    fileParallelism: true,
    maxWorkers: 2,
    // Generous: CI shares a 2-core VM whose CPU can be stolen by neighbours; a slow run must not fail.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    tags: [{ name: 'postgres', description: 'a control-plane contract test: the postgres project runs it again on PostgreSQL' }],
    projects: [
      // Every test, on SQLite (or on PostgreSQL when TEST_DATABASE_URL is already set).
      { extends: true, test: { name: 'main', include: ['test/**/*.test.ts'] } },
      // The control-plane contract tests again, on PostgreSQL: every file that declares
      // `// @module-tag postgres`. Each test context gets a database of its own on the server
      // (test/helpers/control.ts).
      {
        extends: true,
        test: {
          name: 'postgres',
          include: filesTagged('postgres'),
          env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' },
        },
      },
    ],
  },
});
