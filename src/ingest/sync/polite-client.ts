/**
 * The HTTP client of `munidata sync` (docs/data.md, Syncing): one request at a time, a pause between requests,
 * and on a 429, a 5xx, a timeout or a connection dropped mid-answer, retries with growing waits (the server's
 * `Retry-After` when it sends one). An answer is returned only when its body was read to the end, so an importer
 * never sees half a file.
 */

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

const RETRYABLE = (status: number) => status === 429 || status === 408 || status >= 500;

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
          headers: { accept, 'user-agent': o.userAgent },
          signal: AbortSignal.timeout(o.timeoutMs),
          redirect: 'follow',
        });
        if (response.ok) {
          // Reading the whole body here: a connection dropped mid-answer throws, and the file is fetched again.
          const body = Buffer.from(await response.arrayBuffer());
          const expected = response.headers.get('content-length');
          if (expected !== null && response.headers.get('content-encoding') === null && Number(expected) !== body.length) {
            throw new Error(`body cut short: ${body.length} of ${expected} bytes`);
          }
          return { url, status: response.status, body, headers: response.headers, attempts: attempt };
        }
        await response.arrayBuffer().catch(() => undefined);
        if (!RETRYABLE(response.status)) throw new SyncHttpError(url, response.status, `${url}: HTTP ${response.status}`);
        lastProblem = `HTTP ${response.status}`;
        retryAfterMs = retryAfter(response.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof SyncHttpError) throw error;
        lastProblem = describe(error);
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

function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'timed out';
  const cause = e.cause?.code ?? e.cause?.message;
  return cause ? `${e.message ?? 'failed'} (${cause})` : (e.message ?? String(error));
}
