/** Opens the store the configuration names: PostgreSQL when DATABASE_URL is set, else the SQLite file. */
import type { Config } from '../config.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

export function openStore(config: Config): Store {
  if (config.databaseUrl) return openPostgresStore({ url: config.databaseUrl, readUrl: config.databaseReadUrl });
  return openSqliteStore(config.dbPath);
}

/** Where the store lives, for people to read (a database address without its password, or the file). */
export function describeStore(config: Config): string {
  if (!config.databaseUrl) return config.dbPath;
  const url = new URL(config.databaseUrl);
  url.password = '';
  return `${url.href}${config.databaseReadUrl ? ' (reads on a replica)' : ''}`;
}
