/**
 * Configuration, read once from the environment, validated and frozen.
 * Only `src/main.ts` touches the process environment, and only to hand it to `loadConfig` (a test scans for it).
 */
import { type ProxyTrust, parseProxyTrust } from './lib/proxy-trust.js';

export interface Config {
  /** SQLite file of the embedded store. */
  readonly dbPath: string;
  /** PostgreSQL primary (`postgres://…`); when set, the store is PostgreSQL instead of the SQLite file. */
  readonly databaseUrl?: string;
  /** A PostgreSQL read replica for the reads; only with `databaseUrl`. */
  readonly databaseReadUrl?: string;
  /**
   * How long a served request waits on PostgreSQL (`DATABASE_TIMEOUT_MS`): for a connection, and for each statement
   * (docs/deploy.md, When a dependency fails).
   */
  readonly databaseTimeoutMs: number;
  readonly host: string;
  readonly port: number;
  /** Public address used in links, problem `type` URIs and cards; no trailing slash. */
  readonly baseUrl: string;
  /** Public address of the company-agent host (`AGENTS_URL`, default `{baseUrl}/agents`), served by this process. */
  readonly agentsUrl: string;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Redis holding the rate limit and quota counters shared by all instances; unset: in-process counters. */
  readonly redisUrl?: string;
  /**
   * Prefix of every counter key in Redis (`REDIS_PREFIX`, default `munidata:`): deployments sharing one Redis keep
   * apart.
   */
  readonly redisPrefix?: string;
  /** `munidata sync ine`: where INE's JSON API lives (`INE_API_URL`, default https://www.ine.pt; docs/data.md). */
  readonly ineApiUrl: string;
  /**
   * `munidata sync base`: dados.gov.pt's dataset API (`BASE_DATA_URL`, default https://dados.gov.pt/api/1/datasets).
   */
  readonly baseDataUrl: string;
  /**
   * Seconds between two cycles of the pipeline `serve` runs (`PIPELINE_INTERVAL_S`, default 60; 0: none, the work is
   * left to the commands; docs/pipeline.md).
   */
  readonly pipelineIntervalS: number;
  /**
   * The syncs the pipeline runs (`PIPELINE_SYNC`: a comma-separated list of `base` and `ine`; default none, since a
   * sync reaches another service), each at most once an hour (docs/pipeline.md).
   */
  readonly pipelineSync: readonly PipelineSync[];
  /** Which peers may name the client's address in `X-Forwarded-For` (`TRUST_PROXY`); false: none (the default). */
  readonly trustProxy?: ProxyTrust;
  /** How long a client may take (docs/deploy.md, Timeouts). */
  readonly timeouts?: Timeouts;
  /**
   * `WEBHOOK_ALLOW_LOOPBACK=1`: webhook endpoints may be http to a loopback address (tests, local receivers); off,
   * every endpoint is https to a public address (docs/webhooks.md, Addresses).
   */
  readonly webhookAllowLoopback?: boolean;
  /**
   * The console's operators (`CONSOLE_OPERATORS`: comma-separated emails of console users, lower-cased): they see the
   * pipeline's status there (docs/console.md, Operators). Default none.
   */
  readonly consoleOperators: readonly string[];
  /** Prometheus metrics on a listener of their own (`METRICS_PORT`, `METRICS_HOST`); unset: none (docs/deploy.md). */
  readonly metrics?: MetricsListen;
  /** OpenTelemetry traces sent over OTLP/HTTP, when the standard `OTEL_*` variables ask for them; unset: off. */
  readonly tracing?: TracingSettings;
}

export interface MetricsListen {
  readonly host: string;
  readonly port: number;
}

export interface TracingSettings {
  /** Where spans are posted: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, or `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  readonly endpoint: string;
  /** `OTEL_EXPORTER_OTLP_HEADERS` (and `…_TRACES_HEADERS`): `key=value` pairs sent with each export. */
  readonly headers: Readonly<Record<string, string>>;
  /** `OTEL_SERVICE_NAME`, default `munidata`. */
  readonly serviceName: string;
}

/** The sources a pipeline cycle may sync, as `munidata sync <source>` does. */
export const PIPELINE_SYNCS = ['base', 'ine'] as const;
export type PipelineSync = (typeof PIPELINE_SYNCS)[number];

/** A cycle every minute: a new contract or rule is matched within about a minute of its import. */
export const DEFAULT_PIPELINE_INTERVAL_S = 60;

export interface Timeouts {
  /** To send the request line and headers (`HEADERS_TIMEOUT_MS`). */
  readonly headersMs: number;
  /** To send the whole request, body included (`REQUEST_TIMEOUT_MS`). */
  readonly requestMs: number;
  /** A kept-alive connection idle between requests (`KEEP_ALIVE_TIMEOUT_MS`). */
  readonly keepAliveMs: number;
  /** A connection with no byte either way while a request is open (`IDLE_TIMEOUT_MS`). */
  readonly idleMs: number;
}

/** A statement of a served request that takes longer is given up, and the request answered 503. */
export const DEFAULT_DATABASE_TIMEOUT_MS = 5_000;

/** Defaults suited to a read API: requests are a line, a few headers and at most a small JSON body. */
export const DEFAULT_TIMEOUTS: Timeouts = Object.freeze({
  headersMs: 10_000,
  requestMs: 30_000,
  keepAliveMs: 5_000,
  idleMs: 30_000,
});

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
    databaseTimeoutMs: parseMilliseconds(env, 'DATABASE_TIMEOUT_MS', DEFAULT_DATABASE_TIMEOUT_MS),
    host,
    port,
    baseUrl,
    agentsUrl: parseAgentsUrl(env.AGENTS_URL, baseUrl),
    logLevel,
    redisUrl: parseRedisUrl(env.REDIS_URL),
    redisPrefix: parseRedisPrefix(env.REDIS_PREFIX),
    ineApiUrl: parseHttpUrl('INE_API_URL', env.INE_API_URL?.trim() || 'https://www.ine.pt'),
    baseDataUrl: parseHttpUrl('BASE_DATA_URL', env.BASE_DATA_URL?.trim() || 'https://dados.gov.pt/api/1/datasets'),
    pipelineIntervalS: parsePipelineInterval(env.PIPELINE_INTERVAL_S),
    pipelineSync: parsePipelineSync(env.PIPELINE_SYNC),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    timeouts: parseTimeouts(env),
    webhookAllowLoopback: parseSwitch('WEBHOOK_ALLOW_LOOPBACK', env.WEBHOOK_ALLOW_LOOPBACK),
    consoleOperators: parseOperators(env.CONSOLE_OPERATORS),
    metrics: parseMetricsListen(env, port),
    tracing: parseTracing(env),
  });
}

/** `METRICS_PORT` (1–65535, not the public port) and `METRICS_HOST` (default loopback); no port: no listener. */
function parseMetricsListen(env: Record<string, string | undefined>, publicPort: number): MetricsListen | undefined {
  const text = env.METRICS_PORT?.trim();
  if (!text) return undefined;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535 || port === publicPort) {
    throw new ConfigError(`METRICS_PORT must be a port from 1 to 65535 other than PORT's; got "${env.METRICS_PORT}"`);
  }
  return Object.freeze({ host: env.METRICS_HOST?.trim() || '127.0.0.1', port });
}

/**
 * Tracing is on when an OTLP endpoint is named and neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none`
 * turns it off; `otlp` is the only exporter (the OTLP/HTTP JSON protocol).
 */
function parseTracing(env: Record<string, string | undefined>): TracingSettings | undefined {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() || 'otlp';
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true' || exporter === 'none') return undefined;
  if (exporter !== 'otlp') throw new ConfigError(`OTEL_TRACES_EXPORTER must be otlp or none; got "${exporter}"`);
  const signal = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!signal && !base) return undefined;
  const endpoint = signal
    ? parseHttpUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', signal)
    : `${parseHttpUrl('OTEL_EXPORTER_OTLP_ENDPOINT', base as string)}/v1/traces`;
  const headers = {
    ...parseOtlpHeaders('OTEL_EXPORTER_OTLP_HEADERS', env.OTEL_EXPORTER_OTLP_HEADERS),
    ...parseOtlpHeaders('OTEL_EXPORTER_OTLP_TRACES_HEADERS', env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
  };
  const serviceName = env.OTEL_SERVICE_NAME?.trim() || 'munidata';
  return Object.freeze({ endpoint, headers: Object.freeze(headers), serviceName });
}

/** `key=value,key=value`, values percent-encoded (the OTLP exporter's format); the values may be secrets. */
function parseOtlpHeaders(name: string, text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    if (pair.trim() === '') continue;
    const at = pair.indexOf('=');
    const key = pair.slice(0, at).trim();
    if (at <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) {
      throw new ConfigError(`${name} must be comma-separated key=value pairs`);
    }
    try {
      headers[key.toLowerCase()] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      // The value may be a secret (a collector's token): name the variable, not its content.
      throw new ConfigError(`${name}: the value of ${key} is not valid percent-encoding`);
    }
  }
  return headers;
}

/** Whole seconds from 0 (off) to a day. */
function parsePipelineInterval(text: string | undefined): number {
  const trimmed = text?.trim();
  if (!trimmed) return DEFAULT_PIPELINE_INTERVAL_S;
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || value > 86_400) {
    throw new ConfigError(`PIPELINE_INTERVAL_S must be a whole number of seconds from 0 (off) to 86400; got "${text}"`);
  }
  return value;
}

function parsePipelineSync(text: string | undefined): readonly PipelineSync[] {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const unknown = names.filter((name) => !(PIPELINE_SYNCS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new ConfigError(
      `PIPELINE_SYNC must be a comma-separated list of ${PIPELINE_SYNCS.join(', ')}; got "${unknown.join(', ')}"`,
    );
  }
  return Object.freeze([...new Set(names)] as PipelineSync[]);
}

/** Emails as the console keeps them (trimmed, lower-cased); an entry that is no email is refused. */
function parseOperators(text: string | undefined): readonly string[] {
  const emails = (text ?? '')
    .split(',')
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  const bad = emails.find((email) => !/^[^\s@]+@[^\s@]+$/.test(email));
  if (bad !== undefined) throw new ConfigError(`CONSOLE_OPERATORS must be comma-separated emails; got "${bad}"`);
  return Object.freeze([...new Set(emails)]);
}

/** 1 or true: on; 0, false or unset: off. */
function parseSwitch(name: string, text: string | undefined): boolean {
  const value = text?.trim().toLowerCase() ?? '';
  if (value === '1' || value === 'true') return true;
  if (value === '' || value === '0' || value === 'false') return false;
  throw new ConfigError(`${name} must be 1 or 0; got "${text}"`);
}

function parseTrustProxy(text: string | undefined): ProxyTrust {
  const trust = parseProxyTrust(text);
  if (typeof trust === 'object' && 'error' in trust) {
    throw new ConfigError(
      `TRUST_PROXY must be false, a hop count or a comma-separated list of addresses and CIDR ranges: ${trust.error}`,
    );
  }
  return trust;
}

/** A duration in whole milliseconds, from 100 ms to an hour. */
function parseMilliseconds(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 100 || value > 3_600_000) {
    throw new ConfigError(`${name} must be a whole number of milliseconds from 100 to 3600000; got "${env[name]}"`);
  }
  return value;
}

function parseTimeouts(env: Record<string, string | undefined>): Timeouts {
  const ms = (name: string, fallback: number) => parseMilliseconds(env, name, fallback);
  const timeouts = {
    headersMs: ms('HEADERS_TIMEOUT_MS', DEFAULT_TIMEOUTS.headersMs),
    requestMs: ms('REQUEST_TIMEOUT_MS', DEFAULT_TIMEOUTS.requestMs),
    keepAliveMs: ms('KEEP_ALIVE_TIMEOUT_MS', DEFAULT_TIMEOUTS.keepAliveMs),
    idleMs: ms('IDLE_TIMEOUT_MS', DEFAULT_TIMEOUTS.idleMs),
  };
  // Node refuses a header timeout longer than the request's: the headers are part of the request.
  if (timeouts.headersMs > timeouts.requestMs) {
    throw new ConfigError(
      `HEADERS_TIMEOUT_MS (${timeouts.headersMs}) must not exceed REQUEST_TIMEOUT_MS (${timeouts.requestMs})`,
    );
  }
  return Object.freeze(timeouts);
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
  if (protocol !== 'postgres:' && protocol !== 'postgresql:')
    throw new ConfigError(`${name} must be a postgres:// URL`);
  return trimmed;
}

function parseDatabaseReadUrl(env: Record<string, string | undefined>): string | undefined {
  const url = parsePostgresUrl('DATABASE_READ_URL', env.DATABASE_READ_URL);
  if (url && !env.DATABASE_URL?.trim())
    throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL (the primary) as well');
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
