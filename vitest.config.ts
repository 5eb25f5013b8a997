import { configDefaults, defineConfig } from 'vitest/config';
import { FAST_LANE, NOT_IN_FAST_LANE, POSTGRES_RUN, SAME_ON_EVERY_STORE } from './test/lanes.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // npm run test:fast leaves out the files that need PostgreSQL, Redis, a browser, npx or child processes, and the slowest.
    exclude: [
      ...configDefaults.exclude,
      ...(FAST_LANE ? NOT_IN_FAST_LANE : []),
      // The PostgreSQL run repeats only what can differ by store (test/lanes.ts).
      ...(POSTGRES_RUN ? SAME_ON_EVERY_STORE : []),
    ],
    // ...and loads the modules once per worker rather than once per file (import time 59 s → 5 s summed over the
    // files): no file relies on fresh module state, each still gets its own app and store. npm test does the same
    // (import time 172 s → 34 s summed on SQLite, 142 → 27 on PostgreSQL: two minutes of CI's wall time; both runs
    // pass whole this way, 2026-12-01); MUNIDATA_TEST_ISOLATE=1 loads them afresh for every file, to tell a test that
    // leans on another file's module state from one that fails on its own.
    isolate: process.env.MUNIDATA_TEST_ISOLATE === '1',
    globalSetup: ['test/helpers/global-setup.ts'],
    // Each file gets its own in-process app on its own copy of the store; files run in parallel workers.
    pool: 'forks',
    // Two workers, where Vitest's default on a 2-core machine is one: most files wait on child processes, a
    // browser or a database server, and one worker left the second core idle (CI took 23 minutes instead of ~14).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
