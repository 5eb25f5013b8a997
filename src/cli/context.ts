/** What every CLI command needs: the frozen config and a store opened (and migrated) on demand. */
import { migrate } from '../admin/migrate.js';
import type { Config } from '../config.js';
import { openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';

export interface CliContext {
  readonly config: Config;
  readonly json: () => boolean;
  /** Opens and migrates the store, runs `work`, and closes the store whatever happens. */
  withStore<T>(work: (store: Store) => Promise<T>): Promise<T>;
}

export function cliContext(config: Config, json: () => boolean): CliContext {
  return {
    config,
    json,
    async withStore(work) {
      const store = openStore(config);
      try {
        await migrate(store);
        return await work(store);
      } finally {
        await store.close();
      }
    },
  };
}
