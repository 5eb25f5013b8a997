/**
 * The one execution core. Every channel asks it to admit each HTTP request and to execute each operation call
 * (or send a bulk file); no channel runs a handler or a check of its own.
 *
 *   admit:    origin → credential → per-minute limit                                   (admission.ts)
 *   execute:  plan / beta / domain / scope → quota reservation (charge.ts) → validation → handler → rendering
 *             and ETag (execution.ts) → the outcome with its charge, refunded here on an error or a 304
 *
 * The channel sends the outcome and settles its charge: committed once its answer is built (a bulk file: once it
 * is written), refunded if building or sending fails (docs/architecture.md, One core).
 */
import type { Caller } from '../access/caller.js';
import type { RateDecision } from '../access/counters.js';
import { observeAdmission, observeCall } from '../observability/core-observer.js';
import type { UsageChannel } from '../store/console/console-records.js';
import type { CpvRecord, EntityRecord } from '../store/procurement-records.js';
import type { Store } from '../store/store.js';
import { type Admission, type AdmissionDeps, Gate, type RequestFacts, type RequestTrace } from './admission.js';
import { CalendarMemo } from './calendar.js';
import { type Charge, FREE_CALL, Quota, refundedError } from './charge.js';
import { CSV_FORMAT_DIALECTS } from './csv.js';
import type { CursorCodec } from './cursor.js';
import { DatasetFiles } from './dataset-files.js';
import { type Download, type DownloadRequest, noBytes } from './download.js';
import { etagMatches } from './etag.js';
import { type ExecuteRequest, Execution, type Outcome } from './execution.js';
import type { AnyOperation } from './operation.js';

/** What the core needs: what admission needs (admission.ts), and the store and the cursor codec for execution. */
export interface CoreDeps extends AdmissionDeps {
  readonly store: Store;
  readonly cursors: CursorCodec;
}

export class Core {
  readonly #deps: CoreDeps;
  readonly #gate: Gate;
  readonly #quota: Quota;
  readonly #execution: Execution;
  readonly #datasets: DatasetFiles;
  readonly #calendar = new CalendarMemo();

  constructor(deps: CoreDeps) {
    this.#deps = deps;
    this.#gate = new Gate(deps);
    this.#quota = new Quota(deps);
    this.#datasets = new DatasetFiles(deps.operations);
    this.#execution = new Execution({ ...deps, datasets: this.#datasets });
  }

  get baseUrl(): string {
    return this.#deps.baseUrl;
  }

  /** The codec every cursor of the service is signed with (operations' pages, MCP's `resources/list`). */
  get cursors(): CursorCodec {
    return this.#deps.cursors;
  }

  /** Whether an operation's answers have a CSV form (list operations). */
  offersCsv(operation: AnyOperation): boolean {
    return this.#execution.offersCsv(operation);
  }

  async reference() {
    return this.#deps.reference.current(this.#deps.clock());
  }

  /** Buyers and suppliers whose name or tax number is near the text, for argument completion (docs/mcp.md). */
  lookupEntities(text: string, limit: number): Promise<EntityRecord[]> {
    return this.#deps.store.lookupEntities(text, limit);
  }

  /** The CPV vocabulary, read once per data version, for argument completion (docs/mcp.md). */
  async cpvVocabulary(): Promise<CpvRecord[]> {
    return (await this.reference()).memo('cpv-vocabulary', () => this.#deps.store.cpvVocabulary());
  }

  /** Admits one HTTP request: origin, credential, per-minute limit (admission.ts). */
  admit(request: RequestFacts): Promise<Admission> {
    return observeAdmission(
      () => this.#gate.admit(request),
      () => credentialSent(request),
    );
  }

  /** Admits a signed-in person's session (the explorer) under its account's per-minute limit. */
  admitCaller(caller: Caller, trace?: RequestTrace): Promise<Admission> {
    return observeAdmission(
      () => this.#gate.admitCaller(caller, trace),
      () => true,
    );
  }

  /** Admits a request to an agent channel (A2A, MCP): its plan must have data API access. */
  admitDataChannel(request: RequestFacts): Promise<Admission> {
    return observeAdmission(
      () => this.#gate.admitDataChannel(request),
      () => credentialSent(request),
    );
  }

  /** Rate-limits a request that carries no usable credential, by client address. */
  limitAnonymous(clientAddress: string): Promise<RateDecision> {
    return observeAdmission(
      () => this.#gate.limitAnonymous(clientAddress),
      () => false,
    );
  }

  /** The operations this caller may call now (tool lists, extended cards): the same rules `execute` enforces. */
  callableOperations(caller: Caller): Promise<AnyOperation[]> {
    return this.#gate.callableOperations(caller);
  }

  /**
   * Runs one operation call: its outcome, holding its charge for the channel to settle. A refused or failed call
   * throws with nothing charged (`ApiError.quota` tells the quota's state); a 304's charge is given back already.
   */
  execute(request: ExecuteRequest): Promise<Outcome> {
    return observeCall(request.operation.name, () => this.#execute(request));
  }

  async #execute(request: ExecuteRequest): Promise<Outcome> {
    const { admission, operation } = request;
    if (admission.trace) admission.trace.operation = operation.name;
    const nowMs = this.#deps.clock();
    // Without awaiting when the reference data is fresh: this runs on every operation call.
    const reference = this.#deps.reference.fresh(nowMs) ?? (await this.#deps.reference.current(nowMs));
    this.#gate.checkCall(admission, operation, reference.betaGates);
    const calendar = this.#calendar.at(nowMs);
    // Each step below awaits only a promise: with in-process counters and a cached answer, none is taken.
    let charge = FREE_CALL;
    if (!operation.free) {
      const reserved = this.#quota.reserve(admission.caller, usageChannel(request), calendar, nowMs);
      charge = reserved instanceof Promise ? await reserved : reserved;
    }
    try {
      const execution = this.#execution;
      const rendered =
        execution.cached(request, calendar, reference) ?? (await execution.render(request, reference, nowMs, calendar));
      const { ifNoneMatch } = request;
      const etag = request.etag === false && ifNoneMatch === undefined ? undefined : rendered.etag;
      const notModified = etag !== undefined && ifNoneMatch !== undefined && etagMatches(ifNoneMatch, etag);
      if (notModified) {
        const refunded = charge.refund();
        if (refunded instanceof Promise) await refunded;
      }
      return { value: rendered.value, json: rendered.json, body: rendered.body, etag, notModified, charge };
    } catch (error) {
      throw await refundedError(charge, error);
    }
  }

  /**
   * One dataset's file (docs/api.md, Bulk download): the guards of `operation` and then of the dataset's own
   * operation, one unit of quota reserved. The channel sends the file, then commits the charge (a client that hung
   * up midway was still sent what it read) or refunds it when sending fails; a 304's charge is given back here.
   */
  download(request: DownloadRequest): Promise<Download> {
    return observeCall(request.operation.name, () => this.#download(request));
  }

  async #download(request: DownloadRequest): Promise<Download> {
    const { admission, operation } = request;
    const { caller } = admission;
    if (admission.trace) admission.trace.operation = operation.rest.download?.operationId ?? operation.name;
    const nowMs = this.#deps.clock();
    const reference = await this.#deps.reference.current(nowMs);
    this.#gate.checkCall(admission, operation, reference.betaGates);
    const calendar = this.#calendar.at(nowMs);
    const charge: Charge = await this.#quota.reserve(caller, usageChannel(request), calendar, nowMs);
    try {
      const dataset = this.#datasets.resolve(request.dataset, caller, reference.betaGates, this.#deps.baseUrl);
      const ctx = this.#execution.context(caller, reference, nowMs, calendar);
      const dialect = CSV_FORMAT_DIALECTS[request.format];
      const measure = this.#datasets.measured(dataset, ctx);
      const etag = measure?.etags[dialect];
      const notModified = etag !== undefined && etagMatches(request.ifNoneMatch, etag);
      if (notModified) await charge.refund();
      const body = notModified ? noBytes() : this.#datasets.file(dataset, ctx, dialect, measure);
      return { dataset, format: request.format, size: measure?.bytes[dialect], etag, notModified, body, charge };
    } catch (error) {
      throw await refundedError(charge, error);
    }
  }
}

/** Whether a request carried any credential (a refusal without one is no failed attempt at one). */
function credentialSent(request: RequestFacts): boolean {
  return Boolean(request.authorization?.trim() || request.apiKey?.trim());
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
