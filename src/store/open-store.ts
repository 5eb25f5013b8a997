/** Opens the store the configuration names. (PostgreSQL joins here in the scale-out work.) */
import type { Config } from '../config.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export function openStore(config: Config): Store {
  return openSqliteStore(config.dbPath);
}
