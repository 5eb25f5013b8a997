/** What every CLI command needs: the frozen config and a store opened (and migrated) on demand. */
import { migrate } from '../admin/migrate.js';
import type { Config } from '../config.js';
import { openStore } from '../store/open-store.js';
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
