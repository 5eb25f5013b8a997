/** Opens the store the configuration names: PostgreSQL when DATABASE_URL is set, else the SQLite file. */
import type { Config } from '../config.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export function openStore(config: Config): Store {
  if (config.databaseUrl) return openPostgresStore({ url: config.databaseUrl, readUrl: config.databaseReadUrl });
  return openSqliteStore(config.dbPath);
}
