import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Integration files share one OpenSearch node on 2 cores; each uses its own prefix.
    fileParallelism: true,
    maxWorkers: 2,
    // Generous: CI shares a 2-core VM whose CPU can be stolen by neighbours; a slow run must not fail.
    testTimeout: 180_000,
    hookTimeout: 300_000,
  },
});
