/**
 * The two lanes of the suite. `npm test` runs every file, on SQLite and then on PostgreSQL + Redis.
 * `npm run test:fast` runs the in-process files on SQLite alone, for the edit–test loop: it leaves out the files
 * named here, under what each needs beyond Node and a SQLite file (or under `slow`, for the time it takes). A file
 * goes here, under every need it has, when it is written; `test/lanes.test.ts` checks that each name is a test file.
 */
export const NEEDS = {
  /** A PostgreSQL server: multi-instance on every run, postgres-outage on the PostgreSQL run (skipped on SQLite). */
  postgres: [
    'test/multi-instance.test.ts',
    'test/postgres-outage.test.ts',
    'test/revocation.test.ts',
    'test/pipeline-instances.test.ts',
    'test/webhooks-instances.test.ts',
  ],
  /** A Redis server (or the redis-server binary), on the SQLite run too. */
  redis: [
    'test/redis-counters.test.ts',
    'test/faults.test.ts',
    'test/shutdown.test.ts',
    'test/multi-instance.test.ts',
    'test/postgres-outage.test.ts',
    'test/revocation.test.ts',
    'test/pipeline-redis-lease.test.ts',
    'test/webhooks-instances.test.ts',
  ],
  /** Chromium, through playwright-core. */
  browser: [
    'test/docs-page.test.ts',
    'test/console-browser.test.ts',
    'test/console-small-browser.test.ts',
    'test/console-alerts.test.ts',
    'test/alerts-end-to-end.test.ts',
    'test/console-webhooks.test.ts',
    'test/explore-browser.test.ts',
    'test/explore-integrity.test.ts',
    'test/explore-real-and-generated.test.ts',
    'test/mcp-apps-browser.test.ts',
    'test/oauth-browser.test.ts',
    'test/oauth-conformance.test.ts',
  ],
  /** Packages fetched and run by npx (the MCP conformance suite and Inspector, Node 22). */
  npx: [
    'test/mcp-conformance.test.ts',
    'test/mcp-inspector.test.ts',
    'test/postgres-outage.test.ts',
    'test/oauth-conformance.test.ts',
  ],
  /** Child processes of the compiled CLI (dist/, so a build first) or of the compiler: not in-process. */
  processes: [
    'test/cli.test.ts',
    'test/cli-usage.test.ts',
    'test/cli-help.test.ts',
    'test/quickstart.test.ts',
    'test/build-script.test.ts',
    'test/multi-instance.test.ts',
    'test/postgres-outage.test.ts',
    'test/revocation.test.ts',
    'test/pipeline-instances.test.ts',
    'test/alerts-end-to-end.test.ts',
    'test/webhooks-instances.test.ts',
    'test/webhooks-tls.test.ts',
  ],
  /**
   * Nothing but time: each runs the demo generator, or detection and alert matching, over the whole demo dataset
   * several times (seeds, months, interrupted and resumed runs), or reads every table of it whole (export, bulk):
   * 10 to 40 s apiece here, together more than the rest of the fast lane. Every other file still works on the demo
   * store.
   */
  slow: [
    'test/webhooks.test.ts',
    'test/observability.test.ts',
    'test/demo.test.ts',
    'test/demo-procurement.test.ts',
    'test/demo-integrity.test.ts',
    'test/detect.test.ts',
    'test/alerts-matcher.test.ts',
    'test/journal-backfill.test.ts',
    'test/export.test.ts',
    'test/bulk.test.ts',
    'test/real-first-start.test.ts',
  ],
} as const;

/**
 * Files whose every assertion is the same whichever store the app runs on: checks of the sources and the build,
 * the published surface, the protocol suites and Inspector, pages read in the browser whose data the channel
 * tests compare on both stores, the README's quick start (SQLite by definition), input fuzzing that is
 * refused before any store is read, and the compiled CLI's files, whose child processes each run on a SQLite file
 * of their own (`MUNIDATA_DB`) whatever the lane (on the PostgreSQL run they repeated the SQLite run exactly, for
 * 130 s; what the CLI's commands do to a PostgreSQL store is tested in process: the demo, import and migrate files).
 * `npm test` runs them once, on SQLite; the PostgreSQL run leaves them out, so that CI stays within its time (on a
 * 2-core machine the whole suite on both stores took 23 minutes).
 */
export const SAME_ON_EVERY_STORE: readonly string[] = [
  'test/build-script.test.ts',
  'test/cli-help.test.ts',
  'test/cli.test.ts',
  'test/cli-usage.test.ts',
  'test/dependencies.test.ts',
  'test/floors.test.ts',
  'test/lanes.test.ts',
  'test/self-contained.test.ts',
  'test/surface.test.ts',
  'test/mcp-conformance.test.ts',
  'test/mcp-inspector.test.ts',
  'test/oauth-conformance.test.ts',
  'test/docs-page.test.ts',
  'test/explore-browser.test.ts',
  'test/quickstart.test.ts',
  'test/fuzz.test.ts',
];

/** The PostgreSQL run of `npm test` (`npm run test:postgres`). */
export const POSTGRES_RUN = process.env.MUNIDATA_TEST_BACKEND === 'postgres';

/** `MUNIDATA_TEST_LANE=fast` (npm run test:fast): only the files that need none of the above. */
export const FAST_LANE = process.env.MUNIDATA_TEST_LANE === 'fast';

export const NOT_IN_FAST_LANE: readonly string[] = [...new Set(Object.values(NEEDS).flat())].sort();
