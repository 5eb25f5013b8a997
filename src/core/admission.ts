/**
 * Admission: who may ask, and for what. `admit` runs once per HTTP request (origin, credential, per-minute
 * limit); `checkCall` once per operation call (plan, beta, domain and scope, the rules of access/policy.ts).
 */
import type { Authenticator, CredentialHeaders } from '../access/authenticate.js';
import type { Caller } from '../access/caller.js';
import type { Counters, RateDecision } from '../access/counters.js';
import type { DailyUsage } from '../access/daily-usage.js';
import { apiAccessRefusal, canCall, checkAccess } from '../access/policy.js';
import { DependencyUnavailableError } from '../lib/dependency.js';
import { ApiError } from '../lib/errors.js';
import type { UsageChannel } from '../store/console/console-records.js';
import type { AnyOperation } from './operation.js';
import type { ReferenceCache } from './reference.js';

/** Requests per minute allowed to a client address that presents no valid credential. */
export const ANONYMOUS_PER_MINUTE = 60;

export interface RequestFacts extends CredentialHeaders {
  origin?: string;
  clientAddress: string;
  /** Filled in as the request goes: the account admitted, the operation run (the request's log line). */
  trace?: RequestTrace;
}

/** What a request's log line tells beyond HTTP; written by admission and by the core's calls. */
export interface RequestTrace {
  accountId?: number;
  operation?: string;
}

/** What the gate let through: who calls, and the per-minute limit's state the answer's headers report. */
export interface Admission {
  readonly caller: Caller;
  readonly minute: RateDecision | undefined;
  /** The request's trace, where the call names the operation. */
  readonly trace?: RequestTrace;
  /**
   * The channel of every call of this admission, when admitting already told it: a session reads through the
   * explorer (`admitCaller`). An API key may be used on any channel, which names itself on each call instead.
   */
  readonly channel?: UsageChannel;
}

export interface AdmissionDeps {
  readonly counters: Counters;
  readonly authenticator: Authenticator;
  readonly reference: ReferenceCache;
  readonly clock: () => number;
  readonly baseUrl: string;
  readonly operations: readonly AnyOperation[];
  /** Charged requests per day and channel (the console's chart); absent, they are not split. */
  readonly dailyUsage?: DailyUsage;
}

export class Gate {
  readonly #deps: AdmissionDeps;

  constructor(deps: AdmissionDeps) {
    this.#deps = deps;
  }

  /** Rate-limits a request that carries no usable credential, by client address. */
  async limitAnonymous(clientAddress: string): Promise<RateDecision> {
    const { counters, clock } = this.#deps;
    const decision = await counters.hitRate(`addr:${clientAddress}`, ANONYMOUS_PER_MINUTE, clock());
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
  async admitCaller(caller: Caller, trace?: RequestTrace): Promise<Admission> {
    return { ...admitted(caller, await this.#countMinute(caller), trace), channel: 'explorer' };
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

  /** Refuses a call the admission's plan, beta gates, domains or scopes do not allow (403). */
  checkCall(admission: Admission, operation: AnyOperation, betaGates: ReadonlySet<string>): void {
    checkAccess(operation, admission.caller, betaGates, this.#deps.baseUrl);
  }

  /** The operations this caller may call now (tool lists, extended cards): the rules `checkCall` enforces. */
  async callableOperations(caller: Caller): Promise<AnyOperation[]> {
    const { betaGates } = await this.#deps.reference.current(this.#deps.clock());
    return this.#deps.operations.filter((op) => canCall(op, caller, betaGates));
  }

  /** One request counted against the per-minute limit of the caller's account (none when its plan has no limit). */
  #countMinute(caller: Caller): RateDecision | undefined | Promise<RateDecision> {
    const perMinute = caller.plan.requests_per_minute;
    if (perMinute === null) return undefined;
    return this.#deps.counters.hitRate(`acct:${caller.account.id}`, perMinute, this.#deps.clock());
  }
}

/** The admission of a caller whose per-minute limit (if it has one) was counted: refused when it is reached. */
function admitted(caller: Caller, minute: RateDecision | undefined, trace: RequestTrace | undefined): Admission {
  if (minute !== undefined && !minute.allowed) throw rateLimited(minute);
  return { caller, minute, trace };
}

function rateLimited(decision: RateDecision): ApiError {
  return new ApiError('rate-limited', {
    detail: `The limit of ${decision.limit} requests per minute is reached; retry in ${decision.retryAfterSeconds} s.`,
    retryAfter: decision.retryAfterSeconds,
  });
}
