/**
 * What every CLI command needs: the frozen config and a store opened (and migrated) on demand. Made when the command
 * tree is built, so the store's modules (and the migrations' seed data) are imported only when a command opens it
 * (lazy-actions.ts says why).
 */
import type { Config } from '../config.js';
import type { Store } from '../store/store.js';

export interface CliContext {
  readonly config: Config;
  readonly json: () => boolean;
  /**
   * Opens and migrates the store, runs `work`, and closes the store whatever happens. `migrate: false` leaves the
   * migration to `work` (the `migrate` command, which reports it).
   */
  withStore<T>(work: (store: Store) => Promise<T>, options?: { migrate: boolean }): Promise<T>;
}

export function cliContext(config: Config, json: () => boolean): CliContext {
  return {
    config,
    json,
    async withStore(work, options = { migrate: true }) {
      const [{ openStore }, { migrate }] = await Promise.all([
        import('../store/open-store.js'),
        import('../admin/migrate.js'),
      ]);
      const store = openStore(config);
      try {
        if (options.migrate) await migrate(store);
        return await work(store);
      } finally {
        await store.close();
      }
    },
  };
}
