/** Opens the store the configuration names: PostgreSQL when DATABASE_URL is set, else the SQLite file. */
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** Where the store is, as the configuration says (src/config.ts). */
export interface StoreLocation {
  /** The SQLite file, used when no database URL is given. */
  readonly dbPath: string;
  readonly databaseUrl?: string;
  /** A read replica of `databaseUrl`. */
  readonly databaseReadUrl?: string;
}

/**
 * The store, for the CLI's commands (migrations and loads go unbounded) or, with `timeoutMs`, for serving: on
 * PostgreSQL a request then waits at most that long for a connection and for each statement (SQLite, in the
 * process, has nothing to wait for).
 */
export function openStore(config: StoreLocation, serving?: { timeoutMs: number }): Store {
  if (config.databaseUrl) {
    return openPostgresStore({
      url: config.databaseUrl,
      readUrl: config.databaseReadUrl,
      timeoutMs: serving?.timeoutMs,
    });
  }
  return openSqliteStore(config.dbPath);
}

/** Where the store lives, for people to read (a database address without its password, or the file). */
export function describeStore(config: StoreLocation): string {
  if (!config.databaseUrl) return config.dbPath;
  const url = new URL(config.databaseUrl);
  url.password = '';
  return `${url.href}${config.databaseReadUrl ? ' (reads on a replica)' : ''}`;
}
