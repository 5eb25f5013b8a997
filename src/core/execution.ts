/**
 * Execution: one operation call run and rendered — input validation, the handler with its context, the
 * representation asked for and its ETag — or its answer taken from the cache of this data version.
 */
import { createHash } from 'node:crypto';
import type { TObject } from '@sinclair/typebox';
import type { Caller } from '../access/caller.js';
import type { Counters } from '../access/counters.js';
import type { UsageChannel } from '../store/console/console-records.js';
import type { Store } from '../store/store.js';
import type { Admission } from './admission.js';
import type { Calendar } from './calendar.js';
import type { Charge } from './charge.js';
import { cutPage, type OperationContext, type PageResult, type Paging } from './context.js';
import { CSV_FORMAT_DIALECTS, type CsvTable, csvTable } from './csv.js';
import { type CursorCodec, cursorScope } from './cursor.js';
import type { DatasetFiles } from './dataset-files.js';
import type { DatasetReadContext } from './datasets.js';
import type { AnyOperation } from './operation.js';
import type { ReferenceData } from './reference.js';
import { type Rendered, requestResponseKey, responseKey } from './response-cache.js';
import { DEFAULT_LIMIT } from './schemas.js';
import { type InputEncoding, validateInput } from './validate.js';

/**
 * The representations an answer can be sent in: JSON always; CSV for list operations (csv.ts). REST negotiates
 * which; the core renders it, because the ETag, the 304 and with it the quota refund are decided on the bytes sent.
 */
export type Format = 'json' | FileFormat;

/** The CSV representations: CSV, or CSV for a spreadsheet set to Portuguese (a bulk file has only these). */
export type FileFormat = keyof typeof CSV_FORMAT_DIALECTS;

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
  /** The request as received, when the channel can name it exactly (REST: the URL); see `Execution.cached`. */
  readonly requestKey?: string;
  /**
   * The channel asking, unless the admission names it: a charged request is counted for the day under it (the
   * console's usage split, whose parts must sum to the month's total). A call with neither is refused uncharged.
   */
  readonly channel?: UsageChannel;
}

/** A call's answer, and its charge: the channel commits it once the answer is sent, or refunds it if that fails. */
export interface Outcome {
  readonly value: unknown;
  readonly json: string;
  /** The representation to send, as bytes: the JSON, or its CSV when the request asked for it. */
  readonly body: Buffer;
  /** Entity tag of `body`; undefined when the request asked for none (`etag: false`). */
  readonly etag: string | undefined;
  /** The caller's `If-None-Match` matched: answer 304; its charge is already given back. */
  readonly notModified: boolean;
  readonly charge: Charge;
}

export interface ExecutionDeps {
  readonly store: Store;
  readonly counters: Counters;
  readonly cursors: CursorCodec;
  readonly baseUrl: string;
  readonly operations: readonly AnyOperation[];
  readonly datasets: DatasetFiles;
}

export class Execution {
  readonly #deps: ExecutionDeps;
  /** The CSV form of each list operation, derived once from its output schema. */
  readonly #csv: ReadonlyMap<string, CsvTable>;

  constructor(deps: ExecutionDeps) {
    this.#deps = deps;
    const csv = new Map<string, CsvTable>();
    for (const op of deps.operations) {
      const table = csvTable(op.output, op.csvRows);
      if (table) csv.set(op.name, table);
    }
    this.#csv = csv;
  }

  offersCsv(operation: AnyOperation): boolean {
    return this.#csv.has(operation.name);
  }

  /**
   * The answer of a request the channel can name exactly (`requestKey`, the REST URL), from the cache of this data
   * version, looked up before validation: the same text validates to the same input, so a repeated request skips
   * that work too. Without a promise: this is every repeated request's path.
   */
  cached(request: ExecuteRequest, calendar: Calendar, reference: ReferenceData): Rendered | undefined {
    const rawKey = this.#rawKey(request, calendar);
    return rawKey === undefined ? undefined : reference.responses.get(rawKey);
  }

  /**
   * Validates the input and runs the handler — or, for data operations, takes the answer from the cache of this
   * data version (under the validated input's key; `cached` has looked the request's own text up already).
   */
  async render(request: ExecuteRequest, reference: ReferenceData, nowMs: number, calendar: Calendar) {
    const { operation } = request;
    const { caller } = request.admission;
    const format = request.format ?? 'json';
    const rawKey = this.#rawKey(request, calendar);

    const input = { ...request.input };
    validateInput(operation.input as TObject, input, request.encoding);
    const { day } = calendar;
    const key = operation.cache === 'data' ? responseKey(operation.name, caller.plan, day, format, input) : undefined;
    let rendered = key === undefined ? undefined : reference.responses.get(key);
    if (!rendered) {
      const paging = this.#paging(operation.name, input);
      const ctx: OperationContext = { ...this.context(caller, reference, nowMs, calendar), paging };
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

  /** What a handler receives for this caller, but paging (each call has its own). */
  context(caller: Caller, reference: ReferenceData, nowMs: number, calendar: Calendar): DatasetReadContext {
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
      datasets: this.#deps.datasets,
    };
  }

  #rawKey(request: ExecuteRequest, calendar: Calendar): string | undefined {
    const { operation } = request;
    if (operation.cache !== 'data' || request.requestKey === undefined) return undefined;
    const { plan } = request.admission.caller;
    const format = request.format ?? 'json';
    return requestResponseKey(operation.name, plan, calendar.day, format, request.encoding, request.requestKey);
  }

  /**
   * Paging for this call; the cursor is decoded and its scope computed only when a handler asks (no cache hit does).
   */
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
