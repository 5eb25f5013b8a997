/**
 * Configuration, read once from the environment, validated and frozen.
 * Only `src/main.ts` touches the process environment, and only to hand it to `loadConfig` (a test scans for it).
 */

export interface Config {
  /** SQLite file of the embedded store. */
  readonly dbPath: string;
  /** PostgreSQL primary (`postgres://…`); when set, the store is PostgreSQL instead of the SQLite file. */
  readonly databaseUrl?: string;
  /** A PostgreSQL read replica for the reads; only with `databaseUrl`. */
  readonly databaseReadUrl?: string;
  readonly host: string;
  readonly port: number;
  /** Public address used in links, problem `type` URIs and cards; no trailing slash. */
  readonly baseUrl: string;
  /** Public address of the company-agent host (`AGENTS_URL`, default `{baseUrl}/agents`), served by this process. */
  readonly agentsUrl: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Redis holding the rate limit and quota counters shared by all instances; unset: in-process counters. */
  readonly redisUrl?: string;
  /** Prefix of every counter key in Redis (`REDIS_PREFIX`, default `munidata:`): deployments sharing one Redis keep apart. */
  readonly redisPrefix?: string;
  /** `munidata sync ine`: where INE's JSON API lives (`INE_API_URL`, default https://www.ine.pt; docs/data.md). */
  readonly ineApiUrl: string;
  /** `munidata sync base`: dados.gov.pt's dataset API (`BASE_DATA_URL`, default https://dados.gov.pt/api/1/datasets). */
  readonly baseDataUrl: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const port = parsePort(env.PORT ?? '8080');
  const host = env.HOST?.trim() || '127.0.0.1';
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as Config['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${env.LOG_LEVEL}"`);
  }
  const baseUrl = parseBaseUrl(env.BASE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`);
  return Object.freeze({
    dbPath: env.MUNIDATA_DB?.trim() || './munidata.db',
    databaseUrl: parsePostgresUrl('DATABASE_URL', env.DATABASE_URL),
    databaseReadUrl: parseDatabaseReadUrl(env),
    host,
    port,
    baseUrl,
    agentsUrl: parseAgentsUrl(env.AGENTS_URL, baseUrl),
    logLevel,
    redisUrl: parseRedisUrl(env.REDIS_URL),
    redisPrefix: parseRedisPrefix(env.REDIS_PREFIX),
    ineApiUrl: parseHttpUrl('INE_API_URL', env.INE_API_URL?.trim() || 'https://www.ine.pt'),
    baseDataUrl: parseHttpUrl('BASE_DATA_URL', env.BASE_DATA_URL?.trim() || 'https://dados.gov.pt/api/1/datasets'),
  });
}

function parseRedisUrl(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(trimmed);
  } catch {
    url = undefined;
  }
  if (url?.protocol !== 'redis:' && url?.protocol !== 'rediss:') {
    // The value may hold a password: name the variable, not its content.
    throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  return trimmed;
}

/** A key prefix: printable, no spaces (it is part of every key, and of the patterns an operator scans with). */
function parseRedisPrefix(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  if (!/^[\x21-\x7e]{1,100}$/.test(trimmed)) {
    throw new ConfigError(`REDIS_PREFIX must be 1 to 100 printable ASCII characters without spaces; got "${text}"`);
  }
  return trimmed;
}

function parsePostgresUrl(name: string, text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  if (!trimmed) return undefined;
  let protocol: string | undefined;
  try {
    protocol = new URL(trimmed).protocol;
  } catch {
    protocol = undefined;
  }
  // The value may hold a password: name the variable, not its content.
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') throw new ConfigError(`${name} must be a postgres:// URL`);
  return trimmed;
}

function parseDatabaseReadUrl(env: Record<string, string | undefined>): string | undefined {
  const url = parsePostgresUrl('DATABASE_READ_URL', env.DATABASE_READ_URL);
  if (url && !env.DATABASE_URL?.trim()) throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL (the primary) as well');
  return url;
}

/** `AGENTS_URL`: an absolute http(s) URL without query or trailing slash; the host mounts its routes at its path. */
function parseAgentsUrl(text: string | undefined, baseUrl: string): string {
  const value = text?.trim() || `${baseUrl}/agents`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`AGENTS_URL must be an absolute http(s) URL; got "${text}"`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new ConfigError(`AGENTS_URL must be an http(s) URL without query or fragment; got "${text}"`);
  }
  return url.href.replace(/\/+$/, '');
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535; got "${text}"`);
  }
  return port;
}

function parseBaseUrl(text: string): string {
  return parseHttpUrl('BASE_URL', text);
}

function parseHttpUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL; got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http or https; got "${text}"`);
  }
  return url.href.replace(/\/+$/, '');
}
