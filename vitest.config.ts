import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Each file gets its own in-process app on its own copy of the store; files run in parallel workers.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
