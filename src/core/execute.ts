/**
 * The one execution core. Every channel calls `admit` once per HTTP request and `execute` once per
 * operation call; no channel runs a handler or a check of its own.
 *
 *   admit:   origin → credential → per-minute rate limit
 *   execute: plan / beta / domain / scope → quota reservation → input validation → handler
 *            → serialisation and ETag → quota commit (success) or refund (error, 304)
 */
import { createHash } from 'node:crypto';
import type { TObject } from '@sinclair/typebox';
import type { Authenticator, CredentialHeaders } from '../access/authenticate.js';
import type { Caller } from '../access/caller.js';
import { type Counters, monthlyPeriod, type QuotaReservation, type RateDecision } from '../access/counters.js';
import type { DailyUsage } from '../access/daily-usage.js';
import { apiAccessRefusal, canCall, checkAccess } from '../access/policy.js';
import { DependencyUnavailableError } from '../lib/dependency.js';
import { ApiError, toApiError } from '../lib/errors.js';
import type { LimitState } from '../lib/limit-state.js';
import type { UsageChannel } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import { cutPage, type OperationContext, type PageResult, type Paging } from './context.js';
import { CSV_FORMAT_DIALECTS, type CsvTable, csvTable } from './csv.js';
import { type CursorCodec, cursorScope } from './cursor.js';
import { DatasetFiles } from './dataset-files.js';
import type { Dataset, DatasetReadContext } from './datasets.js';
import { etagMatches } from './etag.js';
import type { AnyOperation } from './operation.js';
import type { ReferenceCache, ReferenceData } from './reference.js';
import { type Rendered, requestResponseKey, responseKey } from './response-cache.js';
import { DEFAULT_LIMIT } from './schemas.js';
import { type InputEncoding, validateInput } from './validate.js';

/** Requests per minute allowed to a client address that presents no valid credential. */
export const ANONYMOUS_PER_MINUTE = 60;

export interface RequestFacts extends CredentialHeaders {
  origin?: string;
  clientAddress: string;
  /** Filled in as the request goes: the account admitted, the operation run (the request's log line). */
  trace?: RequestTrace;
}

/** What a request's log line tells beyond HTTP; written by `admit` and `execute`. */
export interface RequestTrace {
  accountId?: number;
  operation?: string;
}

/** The UTC day and the monthly period (`YYYY-MM`, first and last day) an instant falls in. */
interface Calendar {
  readonly day: string;
  readonly period: string;
  readonly start: string;
  readonly end: string;
  /** The instant the period ends (exclusive). */
  readonly periodEndMs: number;
  readonly dayStartMs: number;
  readonly dayEndMs: number;
}

/** What the gate let through: who calls, and the per-minute limit's state the answer's headers report. */
export interface Admission {
  readonly caller: Caller;
  readonly minute: RateDecision | undefined;
  /** The request's trace, where `execute` names the operation. */
  readonly trace?: RequestTrace;
  /**
   * The channel of every call of this admission, when admitting already told it: a session reads through the
   * explorer (`admitCaller`). An API key may be used on any channel, which names itself on each call instead.
   */
  readonly channel?: UsageChannel;
}

/**
 * The representations an answer can be sent in: JSON always; CSV for list operations (csv.ts). REST negotiates
 * which; the core renders it, because the ETag, the 304 and with it the quota refund are decided on the bytes sent.
 */
export type Format = 'json' | FileFormat;

/** The CSV representations: CSV, or CSV for a spreadsheet set to Portuguese (a bulk file has only these). */
export type FileFormat = keyof typeof CSV_FORMAT_DIALECTS;

export interface Outcome {
  readonly value: unknown;
  readonly json: string;
  /** The representation to send, as bytes: the JSON, or `render.fn(value)` when the request gave `render`. */
  readonly body: Buffer;
  /** Entity tag of `body`; undefined when the request asked for none (`etag: false`). */
  readonly etag: string | undefined;
  /** The caller's `If-None-Match` matched: answer 304, nothing was charged. */
  readonly notModified: boolean;
  /** The monthly quota's state after this call, for the answer's headers; undefined when nothing was reserved. */
  readonly month: LimitState | undefined;
}

/** An outcome with the channel's answer that `execute`'s `finish` built from it inside the charge window. */
export type Finished<R> = Outcome & { readonly finished: R };

export interface ExecuteRequest {
  readonly admission: Admission;
  readonly operation: AnyOperation;
  readonly input: Record<string, unknown>;
  readonly encoding: InputEncoding;
  readonly ifNoneMatch?: string;
  /** The representation to send (default JSON); `csv` only where `offersCsv(operation)`. */
  readonly format?: Format;
  /** Channels without conditional requests (A2A, MCP) pass `false`: hashing the answer is then wasted work. */
  readonly etag?: boolean;
  /** The request as received, when the channel can name it exactly (REST: the URL); see `#answer`. */
  readonly requestKey?: string;
  /**
   * The channel asking, unless the admission names it: a charged request is counted for the day under it (the
   * console's usage split, whose parts must sum to the month's total). A call with neither is refused uncharged.
   */
  readonly channel?: UsageChannel;
}

export interface DownloadRequest {
  readonly admission: Admission;
  /** The operation whose `rest.download` route was asked: its domain, scope and beta gate guard every file. */
  readonly operation: AnyOperation;
  readonly dataset: string;
  readonly format: FileFormat;
  readonly ifNoneMatch?: string;
  /** As `ExecuteRequest.channel`. */
  readonly channel?: UsageChannel;
}

/** One dataset's file, as `download` hands it to the channel to send. */
export interface Download {
  readonly dataset: Dataset;
  readonly format: FileFormat;
  /** Its length in bytes, known once it was measured for this data version (listing the datasets measures them). */
  readonly size: number | undefined;
  /** A hash of its bytes, known with `size`. */
  readonly etag: string | undefined;
  /** The caller's `If-None-Match` matched `etag`: answer 304, nothing is charged. */
  readonly notModified: boolean;
  readonly month: LimitState | undefined;
  /** The file's bytes (none on a 304); they throw when the answer must be cut (the data moved, the store failed). */
  readonly body: AsyncIterable<Buffer>;
}

export interface CoreDeps {
  readonly store: Store;
  readonly counters: Counters;
  readonly authenticator: Authenticator;
  readonly reference: ReferenceCache;
  readonly cursors: CursorCodec;
  readonly clock: () => number;
  readonly baseUrl: string;
  readonly operations: readonly AnyOperation[];
  /** Charged requests per day and channel (the console's chart); absent, they are not split. */
  readonly dailyUsage?: DailyUsage;
}

export class Core {
  readonly #deps: CoreDeps;
  /** The CSV form of each list operation, derived once from its output schema. */
  readonly #csv: ReadonlyMap<string, CsvTable>;
  readonly #datasets: DatasetFiles;

  constructor(deps: CoreDeps) {
    this.#deps = deps;
    const csv = new Map<string, CsvTable>();
    for (const op of deps.operations) {
      const table = csvTable(op.output, op.csvRows);
      if (table) csv.set(op.name, table);
    }
    this.#csv = csv;
    this.#datasets = new DatasetFiles(deps.operations);
  }

  /** Whether an operation's answers have a CSV form (list operations). */
  offersCsv(operation: AnyOperation): boolean {
    return this.#csv.has(operation.name);
  }

  get baseUrl(): string {
    return this.#deps.baseUrl;
  }

  /** Rate-limits a request that carries no usable credential, by client address. */
  async limitAnonymous(clientAddress: string): Promise<RateDecision> {
    const decision = await this.#deps.counters.hitRate(`addr:${clientAddress}`, ANONYMOUS_PER_MINUTE, this.#deps.clock());
    if (!decision.allowed) throw rateLimited(decision);
    return decision;
  }

  async admit(request: RequestFacts): Promise<Admission> {
    if (request.origin !== undefined) {
      throw new ApiError('origin-not-allowed', {
        detail: `Requests from web pages (Origin: ${request.origin}) are refused: keep the API key on a server.`,
      });
    }
    const now = this.#deps.clock();
    let caller: Caller;
    try {
      caller = await this.#deps.authenticator.authenticate(request, now);
    } catch (error) {
      // A credential that could not be checked (the store unreachable) is no failure of the caller's: 503, no strike.
      if (error instanceof DependencyUnavailableError) throw error;
      // A failed credential still costs the address one request, so keys cannot be guessed at full speed.
      await this.limitAnonymous(request.clientAddress);
      throw error;
    }
    if (request.trace) request.trace.accountId = caller.account.id;
    if (caller.keyId !== null) this.#deps.dailyUsage?.keyUsed(caller.keyId, now); // an OAuth token has no key
    // Without awaiting when the counters answer at once (in-process): this is every request's path.
    const minute = this.#countMinute(caller);
    return admitted(caller, minute instanceof Promise ? await minute : minute, request.trace);
  }

  /**
   * Admits a caller known by other means than an API key (a signed-in person's session, docs/explorer.md): the
   * per-minute limit of its account, shared with its keys.
   */
  async admitCaller(caller: Caller, trace?: RequestFacts['trace']): Promise<Admission> {
    return { ...admitted(caller, await this.#countMinute(caller), trace), channel: 'explorer' };
  }

  /** One request counted against the per-minute limit of the caller's account (none when its plan has no limit). */
  #countMinute(caller: Caller): RateDecision | undefined | Promise<RateDecision> {
    const perMinute = caller.plan.requests_per_minute;
    return perMinute === null ? undefined : this.#deps.counters.hitRate(`acct:${caller.account.id}`, perMinute, this.#deps.clock());
  }

  async reference() {
    return this.#deps.reference.current(this.#deps.clock());
  }

  /**
   * The agent channels (A2A, MCP) are for plans with data API access: a plan without it is refused for the
   * whole HTTP request (403), not per call.
   */
  async admitDataChannel(request: RequestFacts): Promise<Admission> {
    const admission = await this.admit(request);
    if (!admission.caller.plan.api_access) throw apiAccessRefusal(admission.caller.plan, this.#deps.baseUrl);
    return admission;
  }

  /** The operations this caller may call now (tool lists, extended cards): the same rules `execute` enforces. */
  async callableOperations(caller: Caller): Promise<AnyOperation[]> {
    const { betaGates } = await this.reference();
    return this.#deps.operations.filter((op) => canCall(op, caller, betaGates));
  }

  /**
   * Runs one operation call. `finish`, when given, builds the channel's answer from the outcome (its envelope, its
   * headers): it runs inside the charge window, before the quota is committed, so an answer that fails to be built
   * is refunded like any other error (docs/api.md, Limits and quota); its value comes back as `finished`.
   */
  async execute(request: ExecuteRequest): Promise<Outcome>;
  async execute<R>(request: ExecuteRequest, finish: (outcome: Outcome) => R | Promise<R>): Promise<Finished<R>>;
  async execute<R>(request: ExecuteRequest, finish?: (outcome: Outcome) => R | Promise<R>): Promise<Outcome | Finished<R>> {
    const { admission, operation } = request;
    const { caller } = admission;
    if (admission.trace) admission.trace.operation = operation.name;
    const nowMs = this.#deps.clock();
    // Without awaiting when the reference data is fresh: this runs on every operation call.
    const reference = this.#deps.reference.fresh(nowMs) ?? (await this.#deps.reference.current(nowMs));
    checkAccess(operation, caller, reference.betaGates, this.#deps.baseUrl);

    const calendar = this.#calendar(nowMs);
    const charged = !operation.free;
    const channel = charged ? usageChannel(request) : undefined;
    // Each step below awaits only a promise: with in-process counters and a cached answer, none is taken.
    let month: LimitState | undefined;
    if (charged) {
      const reserved = this.#reserve(caller, calendar, nowMs);
      month = reserved instanceof Promise ? await reserved : reserved;
    }
    try {
      const rendered = this.#cachedAnswer(request, calendar, reference) ?? (await this.#answer(request, reference, nowMs, calendar));
      const etag = request.etag === false && request.ifNoneMatch === undefined ? undefined : rendered.etag;
      const notModified = etag !== undefined && request.ifNoneMatch !== undefined && etagMatches(request.ifNoneMatch, etag);
      const reported = charged && notModified ? refunded(month) : month;
      // One object, `finished` set once known, rather than a copy of the outcome with it: this is every request's path.
      const outcome: { -readonly [K in keyof Finished<R>]: Finished<R>[K] } = {
        value: rendered.value,
        json: rendered.json,
        body: rendered.body,
        etag,
        notModified,
        month: reported,
        finished: undefined as R,
      };
      // Not awaited when `finish` is synchronous: this is every request's path.
      let finished = finish?.(outcome);
      if (finished instanceof Promise) finished = await finished;
      if (charged) {
        const counted = notModified
          ? this.#deps.counters.refundQuota(caller.account.id, calendar.period)
          : this.#deps.counters.commitQuota(caller.account.id, calendar.period);
        if (counted instanceof Promise) await counted;
        if (!notModified && channel !== undefined) this.#deps.dailyUsage?.add(caller.account.id, calendar.day, channel);
      }
      if (finish === undefined) return outcome;
      outcome.finished = finished as R;
      return outcome;
    } catch (error) {
      if (charged) {
        await this.#deps.counters.refundQuota(caller.account.id, calendar.period);
        month = refunded(month);
      }
      throw toApiError(error).withQuota(month);
    }
  }

  /**
   * Sends one dataset's file (docs/api.md, Bulk download): the guards of `operation` and then of the dataset's own
   * operation, one unit of quota reserved, then `send` writes the file. The unit is committed once `send` returns (a
   * client that hung up midway was still sent what it read) and given back when it throws or the answer is a 304.
   */
  async download(request: DownloadRequest, send: (download: Download) => Promise<void>): Promise<void> {
    const { admission, operation } = request;
    const { caller } = admission;
    if (admission.trace) admission.trace.operation = operation.rest.download?.operationId ?? operation.name;
    const nowMs = this.#deps.clock();
    const reference = await this.#deps.reference.current(nowMs);
    checkAccess(operation, caller, reference.betaGates, this.#deps.baseUrl);
    const calendar = this.#calendar(nowMs);
    const channel = usageChannel(request);
    let month = await this.#reserve(caller, calendar, nowMs);
    let notModified = false;
    try {
      const dataset = this.#datasets.resolve(request.dataset, caller, reference.betaGates, this.#deps.baseUrl);
      const ctx = this.#context(caller, reference, nowMs, calendar);
      const dialect = CSV_FORMAT_DIALECTS[request.format];
      const measure = this.#datasets.measured(dataset, ctx);
      const etag = measure?.etags[dialect];
      notModified = etag !== undefined && etagMatches(request.ifNoneMatch, etag);
      await send({
        dataset,
        format: request.format,
        size: measure?.bytes[dialect],
        etag,
        notModified,
        month: notModified ? refunded(month) : month,
        body: notModified ? noBytes() : this.#datasets.file(dataset, ctx, dialect, measure),
      });
    } catch (error) {
      await this.#deps.counters.refundQuota(caller.account.id, calendar.period);
      month = refunded(month);
      throw toApiError(error).withQuota(month);
    }
    if (notModified) await this.#deps.counters.refundQuota(caller.account.id, calendar.period);
    else {
      await this.#deps.counters.commitQuota(caller.account.id, calendar.period);
      this.#deps.dailyUsage?.add(caller.account.id, calendar.day, channel);
    }
  }

  /** What a handler receives for this caller, but paging (each call has its own). */
  #context(caller: Caller, reference: ReferenceData, nowMs: number, calendar: Calendar): DatasetReadContext {
    return {
      caller,
      store: this.#deps.store,
      reference,
      now: new Date(nowMs),
      baseUrl: this.#deps.baseUrl,
      usage: async () => ({
        used: await this.#deps.counters.usage(caller.account.id, calendar.period),
        period: { start: calendar.start, end: calendar.end },
      }),
      datasets: this.#datasets,
    };
  }

  /**
   * The answer of a request the channel can name exactly (`requestKey`, the REST URL), from the cache of this data
   * version, looked up before validation: the same text validates to the same input, so a repeated request skips
   * that work too. Without a promise: this is every repeated request's path.
   */
  #cachedAnswer(request: ExecuteRequest, calendar: Calendar, reference: ReferenceData): Rendered | undefined {
    const rawKey = this.#rawKey(request, calendar);
    return rawKey === undefined ? undefined : reference.responses.get(rawKey);
  }

  #rawKey(request: ExecuteRequest, calendar: Calendar): string | undefined {
    const { operation } = request;
    if (operation.cache !== 'data' || request.requestKey === undefined) return undefined;
    const format = request.format ?? 'json';
    return requestResponseKey(operation.name, request.admission.caller.plan, calendar.day, format, request.encoding, request.requestKey);
  }

  /**
   * Validates the input and runs the handler — or, for data operations, takes the answer from the cache of this
   * data version (under the validated input's key; `#cachedAnswer` has looked the request's own text up already).
   */
  async #answer(request: ExecuteRequest, reference: ReferenceData, nowMs: number, calendar: Calendar): Promise<Rendered> {
    const { operation, admission } = request;
    const { caller } = admission;
    const cached = operation.cache === 'data';
    const format = request.format ?? 'json';
    const { day } = calendar;
    const rawKey = this.#rawKey(request, calendar);

    const input = { ...request.input };
    validateInput(operation.input as TObject, input, request.encoding);
    const key = cached ? responseKey(operation.name, caller.plan, day, format, input) : undefined;
    let rendered = key === undefined ? undefined : reference.responses.get(key);
    if (!rendered) {
      const ctx: OperationContext = { ...this.#context(caller, reference, nowMs, calendar), paging: this.#paging(operation.name, input) };
      const value = await operation.handler(input as never, ctx);
      const json = JSON.stringify(value);
      const csv = format === 'json' ? undefined : this.#csv.get(operation.name);
      const body = Buffer.from(csv && format !== 'json' ? csv.render(value, CSV_FORMAT_DIALECTS[format]) : json);
      // Hashing bytes, not a string: a string would be re-encoded first.
      rendered = { value, json, body, etag: `W/"${createHash('sha1').update(body).digest('base64url')}"` };
      if (key !== undefined) reference.responses.set(key, rendered);
    }
    if (rawKey !== undefined) reference.responses.set(rawKey, rendered);
    return rendered;
  }

  /** The UTC day and monthly period of an instant, recomputed only when the day changes. */
  #calendar(nowMs: number): Calendar {
    let cached = this.#calendarCache;
    if (cached === undefined || nowMs < cached.dayStartMs || nowMs >= cached.dayEndMs) {
      const now = new Date(nowMs);
      const p = monthlyPeriod(now);
      const dayStartMs = nowMs - (nowMs % 86_400_000);
      cached = {
        day: now.toISOString().slice(0, 10),
        period: p.key,
        start: p.start,
        end: p.end,
        periodEndMs: Date.parse(`${p.end}T00:00:00Z`) + 86_400_000,
        dayStartMs,
        dayEndMs: dayStartMs + 86_400_000,
      };
      this.#calendarCache = cached;
    }
    return cached;
  }

  #calendarCache: Calendar | undefined;

  /**
   * Reserves one unit of the month's quota; the quota's state after it (undefined for an unlimited plan). A promise
   * only when the counters answer with one.
   */
  #reserve(caller: Caller, calendar: Calendar, nowMs: number): LimitState | undefined | Promise<LimitState | undefined> {
    const limit = caller.plan.requests_per_month;
    const reservation = this.#deps.counters.reserveQuota(caller.account.id, calendar.period, limit);
    return reservation instanceof Promise
      ? reservation.then((settled) => this.#reserved(settled, limit, calendar, nowMs))
      : this.#reserved(reservation, limit, calendar, nowMs);
  }

  #reserved(reservation: QuotaReservation, limit: number | null, calendar: Calendar, nowMs: number): LimitState | undefined {
    const secondsLeft = Math.max(1, Math.ceil((calendar.periodEndMs - nowMs) / 1000));
    const month = limit === null ? undefined : { limit, remaining: Math.max(0, limit - reservation.used), resetSeconds: secondsLeft };
    if (!reservation.granted) {
      throw new ApiError('quota-exceeded', {
        detail: `The monthly quota of ${limit} requests is used; it resets on ${nextMonthStart(calendar.end)} (UTC).`,
        retryAfter: secondsLeft,
        featureKey: 'requests_per_month',
        upgradeUrl: `${this.#deps.baseUrl}/docs#plans`,
        quota: month,
      });
    }
    return month;
  }

  /** Paging for this call; the cursor is decoded and the scope computed only when a handler asks (not on cache hits). */
  #paging(operation: string, input: Record<string, unknown>): Paging {
    const limit = typeof input.limit === 'number' ? input.limit : DEFAULT_LIMIT;
    const cursors = this.#deps.cursors;
    let scope: string | undefined;
    const scopeOf = () => {
      scope ??= cursorScope(operation, input);
      return scope;
    };
    return {
      limit,
      get after() {
        return typeof input.cursor === 'string' ? cursors.decode(scopeOf(), input.cursor) : undefined;
      },
      page<T>(rows: T[], positionOf: (row: T) => unknown): PageResult<T> {
        return cutPage(rows, limit, positionOf, (position) => cursors.encode(scopeOf(), position));
      },
    };
  }
}

/** The admission of a caller whose per-minute limit (if it has one) was counted: refused when it is reached. */
function admitted(caller: Caller, minute: RateDecision | undefined, trace: RequestTrace | undefined): Admission {
  if (minute !== undefined && !minute.allowed) throw rateLimited(minute);
  return { caller, minute, trace };
}

/**
 * The channel a charged call is counted under. One that names none is a channel written without it: refused before
 * anything is reserved, rather than charged outside every part of the usage split.
 */
function usageChannel(request: ExecuteRequest | DownloadRequest): UsageChannel {
  const channel = request.channel ?? request.admission.channel;
  if (channel === undefined) {
    throw new Error('A charged call named no channel to count it under (ExecuteRequest.channel).');
  }
  return channel;
}

function rateLimited(decision: RateDecision): ApiError {
  return new ApiError('rate-limited', {
    detail: `The limit of ${decision.limit} requests per minute is reached; retry in ${decision.retryAfterSeconds} s.`,
    retryAfter: decision.retryAfterSeconds,
  });
}

/** A refunded request gives its unit back in the reported remaining count. */
function refunded(month: LimitState | undefined): LimitState | undefined {
  return month && month.remaining < month.limit ? { ...month, remaining: month.remaining + 1 } : month;
}

async function* noBytes(): AsyncGenerator<Buffer> {}

function nextMonthStart(periodEnd: string): string {
  const d = new Date(`${periodEnd}T00:00:00Z`);
  return new Date(d.getTime() + 86_400_000).toISOString().slice(0, 10);
}
