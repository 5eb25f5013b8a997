import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file gets its own in-process app and store; files run in parallel workers.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
