import { configDefaults, defineConfig } from 'vitest/config';
import { FAST_LANE, NOT_IN_FAST_LANE } from './test/lanes.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // npm run test:fast leaves out the files that need PostgreSQL, Redis, a browser, npx or child processes, and the slowest.
    exclude: FAST_LANE ? [...configDefaults.exclude, ...NOT_IN_FAST_LANE] : configDefaults.exclude,
    // ...and loads the modules once per worker rather than once per file (import time 59 s → 5 s summed over the
    // files): no file relies on fresh module state, each still gets its own app and store. npm test isolates every file.
    isolate: !FAST_LANE,
    globalSetup: ['test/helpers/global-setup.ts'],
    // Each file gets its own in-process app on its own copy of the store; files run in parallel workers.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
