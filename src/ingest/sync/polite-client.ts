/**
 * The HTTP client of `munidata sync` (docs/data.md, Syncing): one request at a time, a pause between requests,
 * and retries with growing waits (the server's `Retry-After` when it sends one) only on answers that say "later":
 * a 429, a 5xx, a timeout, a connection dropped mid-answer. A host that cannot be resolved or reached, or any other
 * failure, fails at once. An answer is returned only when its body was read to the end, so an importer never sees
 * half a file.
 */

import { traceHeaders } from '../../observability/tracing.js';

export interface PoliteClientOptions {
  /** Retries after the first attempt (default 5). */
  readonly retries?: number;
  /** The first wait before a retry; each next one doubles (default 1 s). */
  readonly baseDelayMs?: number;
  /** The longest wait, also the cap on `Retry-After` (default 60 s). */
  readonly maxDelayMs?: number;
  /** Pause between two requests (default 500 ms): public servers are shared. */
  readonly pauseMs?: number;
  /** A request (its whole body) that takes longer is abandoned and retried (default 120 s). */
  readonly timeoutMs?: number;
  readonly userAgent?: string;
  /** Tests pass a fake clock's sleep. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** One line per retry, for the progress output. */
  readonly log?: (line: string) => void;
}

export interface FetchedFile {
  readonly url: string;
  readonly status: number;
  readonly body: Buffer;
  readonly headers: Headers;
  /** Attempts it took (1 when the first one answered). */
  readonly attempts: number;
}

/** A request that failed for good: a refusal (4xx other than 429) or every retry used. */
export class SyncHttpError extends Error {
  readonly url: string;
  readonly status: number | undefined;
  constructor(url: string, status: number | undefined, message: string) {
    super(message);
    this.name = 'SyncHttpError';
    this.url = url;
    this.status = status;
  }
}

/**
 * The host could not be resolved or reached (its name does not resolve, nothing listens, no route): asking again,
 * or asking it for the next file, will not help, so a sync stops there.
 */
export class HostUnreachableError extends SyncHttpError {
  constructor(url: string, message: string) {
    super(url, undefined, message);
    this.name = 'HostUnreachableError';
  }
}

const RETRYABLE = (status: number) => status === 429 || status === 408 || status >= 500;

/** The codes of a connection dropped or stalled once it was made: worth asking again later. */
const DROPPED = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The codes of a host that cannot be resolved or reached, each with what it means to a person. */
const UNREACHABLE: Readonly<Record<string, string>> = {
  ENOTFOUND: 'its name does not resolve',
  EAI_AGAIN: 'its name could not be resolved (no answer from DNS: offline?)',
  EAI_FAIL: 'its name could not be resolved',
  EAI_NONAME: 'its name does not resolve',
  ECONNREFUSED: 'the connection was refused (nothing listens there)',
  EHOSTUNREACH: 'no route to the host',
  EHOSTDOWN: 'the host is down',
  ENETUNREACH: 'the network is unreachable (offline?)',
  ENETDOWN: 'the network is down',
  EADDRNOTAVAIL: 'its address cannot be reached from here',
  UND_ERR_CONNECT_TIMEOUT: 'the connection was not accepted in time',
};

/** A body that ended before its `Content-Length`: the connection dropped mid-answer. */
class CutShortError extends Error {}

export class PoliteClient {
  readonly #options: Required<Omit<PoliteClientOptions, 'log'>> & Pick<PoliteClientOptions, 'log'>;
  #lastRequestAt = 0;
  #requests = 0;

  constructor(options: PoliteClientOptions = {}) {
    this.#options = {
      retries: options.retries ?? 5,
      baseDelayMs: options.baseDelayMs ?? 1_000,
      maxDelayMs: options.maxDelayMs ?? 60_000,
      pauseMs: options.pauseMs ?? 500,
      timeoutMs: options.timeoutMs ?? 120_000,
      userAgent: options.userAgent ?? 'munidata-sync (+https://github.com/munidata)',
      sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      log: options.log,
    };
  }

  /** Requests made so far, retries included. */
  get requests(): number {
    return this.#requests;
  }

  /** GET `url`; resolves with the whole body of a 2xx answer, or throws SyncHttpError. */
  async get(url: string, accept = 'application/json'): Promise<FetchedFile> {
    const o = this.#options;
    let lastProblem = '';
    for (let attempt = 1; attempt <= o.retries + 1; attempt++) {
      await this.#pause();
      let retryAfterMs: number | undefined;
      try {
        const response = await fetch(url, {
          // The pipeline step's trace goes on at the source (docs/deploy.md, Operating); none when tracing is off.
          headers: { accept, 'user-agent': o.userAgent, ...traceHeaders() },
          signal: AbortSignal.timeout(o.timeoutMs),
          redirect: 'follow',
        });
        if (response.ok) {
          // Reading the whole body here: a connection dropped mid-answer throws, and the file is fetched again.
          const body = Buffer.from(await response.arrayBuffer());
          const expected = response.headers.get('content-length');
          if (
            expected !== null &&
            response.headers.get('content-encoding') === null &&
            Number(expected) !== body.length
          ) {
            throw new CutShortError(`body cut short: ${body.length} of ${expected} bytes`);
          }
          return { url, status: response.status, body, headers: response.headers, attempts: attempt };
        }
        await response.arrayBuffer().catch(() => undefined);
        if (!RETRYABLE(response.status))
          throw new SyncHttpError(url, response.status, `${url}: HTTP ${response.status}`);
        lastProblem = `HTTP ${response.status}`;
        retryAfterMs = retryAfter(response.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof SyncHttpError) throw error;
        const failure = classify(error);
        if (failure.kind === 'unreachable')
          throw new HostUnreachableError(url, `${url}: cannot reach ${hostOf(url)}: ${failure.problem}`);
        if (failure.kind === 'refused') throw new SyncHttpError(url, undefined, `${url}: ${failure.problem}`);
        lastProblem = failure.problem;
      }
      if (attempt > o.retries) break;
      const wait = Math.min(o.maxDelayMs, retryAfterMs ?? o.baseDelayMs * 2 ** (attempt - 1));
      o.log?.(`  ${lastProblem} from ${url}; retry ${attempt} of ${o.retries} in ${Math.round(wait / 100) / 10} s`);
      await o.sleep(wait);
    }
    throw new SyncHttpError(url, undefined, `${url}: ${lastProblem}, after ${o.retries + 1} attempts`);
  }

  async #pause(): Promise<void> {
    const since = Date.now() - this.#lastRequestAt;
    if (this.#requests > 0 && since < this.#options.pauseMs) await this.#options.sleep(this.#options.pauseMs - since);
    this.#lastRequestAt = Date.now();
    this.#requests++;
  }
}

/** `Retry-After` in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Whether a failed request is worth asking again, and what went wrong, in words. */
function classify(error: unknown): { kind: 'later' | 'unreachable' | 'refused'; problem: string } {
  if (error instanceof CutShortError) return { kind: 'later', problem: error.message };
  const e = error as { name?: string; message?: string };
  if (e.name === 'TimeoutError') return { kind: 'later', problem: 'timed out' };
  const cause = rootCause(error);
  const code = cause.code ?? '';
  const at = cause.address === undefined ? '' : ` ${cause.address}${cause.port === undefined ? '' : `:${cause.port}`}`;
  if (code in UNREACHABLE) return { kind: 'unreachable', problem: `${UNREACHABLE[code]} (${code}${at})` };
  const problem =
    cause.message && cause.message !== e.message
      ? `${e.message ?? 'failed'} (${cause.message})`
      : (e.message ?? String(error));
  // undici's "terminated": the body's connection closed before its end.
  if (DROPPED.has(code) || e.message === 'terminated') return { kind: 'later', problem };
  return { kind: 'refused', problem };
}

interface ErrorCause {
  readonly code?: string;
  readonly message?: string;
  readonly address?: string;
  readonly port?: number;
}

/**
 * The innermost cause of a failed fetch that has a code (undici's TypeError wraps the socket's error, or an
 * AggregateError of one per address tried); the innermost one when none has.
 */
function rootCause(error: unknown): ErrorCause {
  const chain: (ErrorCause & { cause?: unknown; errors?: unknown[] })[] = [];
  let current: unknown = error;
  while (current !== null && typeof current === 'object' && chain.length < 6) {
    const link = current as ErrorCause & { cause?: unknown; errors?: unknown[] };
    chain.push(link);
    current = link.cause ?? link.errors?.[0];
  }
  return chain.findLast((link) => typeof link.code === 'string') ?? chain.at(-1) ?? {};
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
