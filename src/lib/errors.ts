/**
 * The one error table. Every refusal the service can give is a kind listed here, with its HTTP status
 * (REST, and the status of a whole HTTP answer on A2A and MCP), its JSON-RPC code for the A2A channel, its
 * form on the MCP channel and its description, which `{base_url}/problems/<kind>` serves. Channels translate;
 * none invents a kind.
 */
import { DependencyUnavailableError } from './dependency.js';
import type { LimitState } from './limit-state.js';
import { UnstorableTextError } from './storable-text.js';

export interface ErrorKindInfo {
  readonly status: number;
  readonly title: string;
  readonly description: string;
  /**
   * How the A2A channel answers: a JSON-RPC error code, or `http` when the whole HTTP answer carries the
   * status (authentication, origin, plan without API access, rate limit).
   */
  readonly a2a: number | 'http';
  /**
   * A2A: the JSON-RPC error (with its `a2a` code) goes out with the kind's HTTP status instead of 200. For a
   * dependency outage, which proxies, load balancers and HTTP retry logic must see as a 503 (with `Retry-After`)
   * whichever step of the request it struck.
   */
  readonly a2aHttpStatus?: true;
  /**
   * How the MCP channel answers: `http` when the whole HTTP answer carries the status, `result` for a `tools/call`
   * result with `isError: true` carrying the problem document (a failed call the model can act on).
   */
  readonly mcp: 'http' | 'result';
}

export const ERROR_KINDS = {
  'bad-request': {
    status: 400,
    title: 'Malformed request',
    description:
      'The HTTP request cannot be read: a malformed request line or header, a URL that is not valid, or a body that ' +
      'cannot be parsed. Nothing was run or charged.',
    a2a: 'http',
    mcp: 'http',
  },
  'invalid-cursor': {
    status: 400,
    title: 'Invalid cursor',
    description:
      'The `cursor` parameter is not one this endpoint issued for these filters. Start again without a cursor, or ' +
      'pass the `next_cursor` of the previous page unchanged.',
    a2a: -32602,
    mcp: 'result',
  },
  'invalid-auth': {
    status: 401,
    title: 'Invalid credential',
    description:
      'The API key is missing, wrong, expired or revoked. Send it as `Authorization: Bearer sk_live_…` (or ' +
      '`X-API-Key`).',
    a2a: 'http',
    mcp: 'http',
  },
  'quota-exceeded': {
    status: 402,
    title: 'Monthly quota used',
    description:
      "The plan's monthly request quota is used up. It resets at the start of the next calendar month (UTC); `GET " +
      '/v1/me` shows the period.',
    a2a: -32004,
    mcp: 'result',
  },
  'beta-access-required': {
    status: 403,
    title: 'Beta access required',
    description: 'This operation or data domain is in beta and the account is not in the beta group.',
    a2a: -32004,
    mcp: 'http',
  },
  'api-access-required': {
    status: 403,
    title: 'Data API access required',
    description: "The account's plan has no data API access. The premium plan includes it.",
    a2a: 'http',
    mcp: 'http',
  },
  'domain-not-in-plan': {
    status: 403,
    title: 'Data domain not in plan',
    description:
      "The operation belongs to a data domain that the account's plan does not include. `GET /v1/me` lists the " +
      "plan's domains.",
    a2a: -32004,
    mcp: 'result',
  },
  'insufficient-scope': {
    status: 403,
    title: 'Insufficient scope',
    description:
      "The API key lacks the scope this operation needs. `GET /v1/me` lists the key's scopes; create a key with the " +
      'scope.',
    a2a: -32004,
    mcp: 'result',
  },
  'origin-not-allowed': {
    status: 403,
    title: 'Browser requests not allowed',
    description:
      'The request carries an `Origin` header: it comes from a web page. API keys must stay on a server; call the ' +
      'API from your back end.',
    a2a: 'http',
    mcp: 'http',
  },
  'not-found': {
    status: 404,
    title: 'Not found',
    description: 'The resource (municipality, indicator, signal, case, contract…) or route does not exist.',
    a2a: -32004,
    mcp: 'result',
  },
  'method-not-allowed': {
    status: 405,
    title: 'Method not allowed',
    description:
      'The REST interface is read-only: only GET (and HEAD) are served. The `Allow` header lists the methods.',
    a2a: 'http',
    mcp: 'http',
  },
  'request-timeout': {
    status: 408,
    title: 'Request timeout',
    description:
      'The request (its headers or its body) did not arrive in time; the connection is closed. Send it again, whole.',
    a2a: 'http',
    mcp: 'http',
  },
  'payload-too-large': {
    status: 413,
    title: 'Request body too large',
    description:
      'The request body is larger than the endpoint accepts (1 MiB on A2A and MCP; the REST interface takes no body).',
    a2a: 'http',
    mcp: 'http',
  },
  'expectation-failed': {
    status: 417,
    title: 'Expectation failed',
    description:
      'The request has an `Expect` header the service cannot meet: only `Expect: 100-continue` is understood.',
    a2a: 'http',
    mcp: 'http',
  },
  'validation-error': {
    status: 422,
    title: 'Invalid parameter',
    description:
      'A parameter has the wrong type, is out of range or is unknown. `errors` names each offending parameter.',
    a2a: -32602,
    mcp: 'result',
  },
  'header-fields-too-large': {
    status: 431,
    title: 'Request headers too large',
    description:
      'The request line and headers together exceed the size the server reads (16 KiB). Send fewer or shorter ' +
      'headers, or a shorter URL.',
    a2a: 'http',
    mcp: 'http',
  },
  'rate-limited': {
    status: 429,
    title: 'Too many requests',
    description: "The plan's per-minute request limit is reached. Wait the number of seconds in `Retry-After`.",
    a2a: 'http',
    mcp: 'http',
  },
  internal: {
    status: 500,
    title: 'Internal error',
    description: 'An unexpected error. It has been logged with the `request_id`; retry later or report the id.',
    a2a: -32603,
    mcp: 'result',
  },
  'not-implemented': {
    status: 501,
    title: 'Method not implemented',
    description: 'The method is served on no resource: CONNECT asks for a tunnel, and the service is no proxy.',
    a2a: 'http',
    mcp: 'http',
  },
  'service-unavailable': {
    status: 503,
    title: 'Service temporarily unavailable',
    description: 'A dependency is unavailable. Retry after `Retry-After` seconds, with growing intervals.',
    a2a: -32004,
    a2aHttpStatus: true,
    mcp: 'http',
  },
} as const satisfies Record<string, ErrorKindInfo>;

export type ErrorKind = keyof typeof ERROR_KINDS;

/** One offending field, as listed in a validation problem's `errors`. */
export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** A value the request may have meant (an unknown municipality's nearest names), listed in `suggestions`. */
export interface Suggestion {
  readonly code: string;
  readonly slug?: string;
  readonly name: string;
}

/** An operation, as an error names it: its name (tool, skill) and its REST path. */
export interface NamedOperation {
  readonly name: string;
  readonly rest: { readonly path: string };
}

/**
 * What to call next after an error, which each channel names in its own form after the detail: "GET /v1/signals
 * lists them." on REST, "The tool signals_list lists them." on MCP, "The skill signals_list …" on A2A.
 */
export interface SeeAlso {
  readonly operation: NamedOperation;
  /** What it does for the caller, after its name: "lists them". */
  readonly does: string;
}

export interface ApiErrorOptions {
  readonly detail?: string;
  /** Said after the detail, in the channel's form (ErrorPlace.refer); several, one sentence each. */
  readonly see?: SeeAlso | readonly SeeAlso[];
  readonly errors?: readonly FieldError[];
  readonly suggestions?: readonly Suggestion[];
  /** Seconds to wait, sent as `Retry-After`. */
  readonly retryAfter?: number;
  readonly featureKey?: string;
  readonly upgradeUrl?: string;
  readonly cause?: unknown;
  /** The monthly quota's state when the error happened after a reservation (reported in the answer's headers). */
  readonly quota?: LimitState;
  /**
   * An OAuth bearer challenge (RFC 6750 §3.1) for a caller that presented an access token: `invalid_token` (401),
   * or `insufficient_scope` (403, step-up) with `scopes` the token would need. The agent channels then refuse the
   * whole HTTP request with `WWW-Authenticate` naming the Protected Resource Metadata (docs/oauth.md).
   */
  readonly challenge?: 'invalid_token' | 'insufficient_scope';
  readonly scopes?: readonly string[];
}

/** The one error type operations and the core throw. Anything else that escapes becomes `internal`. */
export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly detail: string | undefined;
  readonly errors: readonly FieldError[] | undefined;
  readonly suggestions: readonly Suggestion[] | undefined;
  readonly retryAfter: number | undefined;
  readonly featureKey: string | undefined;
  readonly upgradeUrl: string | undefined;
  readonly quota: LimitState | undefined;
  readonly challenge: 'invalid_token' | 'insufficient_scope' | undefined;
  readonly scopes: readonly string[] | undefined;
  readonly see: SeeAlso | readonly SeeAlso[] | undefined;
  readonly #options: ApiErrorOptions;

  constructor(kind: ErrorKind, options: ApiErrorOptions = {}) {
    super(options.detail ?? ERROR_KINDS[kind].title, { cause: options.cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.detail = options.detail;
    this.errors = options.errors;
    this.suggestions = options.suggestions;
    this.retryAfter = options.retryAfter;
    this.featureKey = options.featureKey;
    this.upgradeUrl = options.upgradeUrl;
    this.quota = options.quota;
    this.challenge = options.challenge;
    this.scopes = options.scopes;
    this.see = options.see;
    this.#options = options;
  }

  /** The same error, reporting the quota's state (the core adds it to errors raised after a reservation). */
  withQuota(quota: LimitState | undefined): ApiError {
    return quota === undefined ? this : new ApiError(this.kind, { ...this.#options, quota });
  }

  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof DependencyUnavailableError) {
    // Which dependency is named, not how it failed: the cause (host names, driver messages) stays in the logs.
    return new ApiError('service-unavailable', {
      detail: `The service cannot reach its ${error.dependency} right now; retry in ${error.retryAfter} s.`,
      retryAfter: error.retryAfter,
      cause: error,
    });
  }
  if (error instanceof UnstorableTextError)
    return new ApiError('validation-error', { detail: error.message, cause: error });
  return new ApiError('internal', { cause: error });
}

/** RFC 9457 problem document, with the service's extension members. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  request_id?: string;
  feature_key?: string;
  upgrade_url?: string;
  errors?: FieldError[];
  suggestions?: Suggestion[];
}

export function problemTypeUrl(baseUrl: string, kind: ErrorKind): string {
  return `${baseUrl}/problems/${kind}`;
}

/**
 * Where an error happened: the service's base URL (problem types), the request id, the path (problem `instance`), and
 * how the channel names an operation (`restReference` when it does not say).
 */
export interface ErrorPlace {
  readonly baseUrl: string;
  readonly requestId: string;
  readonly instance: string;
  readonly refer?: (operation: NamedOperation) => string;
}

/** An operation as REST names it: `GET /v1/procurement/contracts`, a path parameter as `{id}`. */
export const restReference = (operation: NamedOperation): string =>
  `GET ${operation.rest.path.replace(/:([a-z_]+)/g, '{$1}')}`;

export function toProblem(
  error: ApiError,
  where: Omit<ErrorPlace, 'requestId' | 'instance'> & Partial<ErrorPlace>,
): Problem {
  const info = ERROR_KINDS[error.kind];
  const problem: Problem = { type: problemTypeUrl(where.baseUrl, error.kind), title: info.title, status: info.status };
  // An internal error never carries its cause's message: that could leak SQL or a stack.
  if (error.kind !== 'internal') {
    const refer = where.refer ?? restReference;
    const sees = (error.see === undefined ? [] : [error.see].flat()).map(
      (see) => `${refer(see.operation)} ${see.does}.`,
    );
    const detail = [error.detail, ...sees].filter(Boolean).join(' ');
    if (detail !== '') problem.detail = detail;
  }
  if (where.instance !== undefined) problem.instance = where.instance;
  if (where.requestId !== undefined) problem.request_id = where.requestId;
  if (error.featureKey !== undefined) problem.feature_key = error.featureKey;
  if (error.upgradeUrl !== undefined) problem.upgrade_url = error.upgradeUrl;
  if (error.errors !== undefined && error.errors.length > 0) problem.errors = [...error.errors];
  if (error.suggestions !== undefined) problem.suggestions = [...error.suggestions];
  return problem;
}

/**
 * The kind of an HTTP status the framework (Fastify, Node's HTTP parser) answered with before any route ran: every
 * such answer is still one of the table's kinds, in the channel's form.
 */
export function kindOfStatus(status: number): ErrorKind {
  switch (status) {
    case 404:
      return 'not-found';
    case 405:
      return 'method-not-allowed';
    case 408:
      return 'request-timeout';
    case 413:
      return 'payload-too-large';
    case 417:
      return 'expectation-failed';
    case 414:
    case 431:
      return 'header-fields-too-large';
    default:
      if (status === 501) return 'not-implemented';
      return status >= 400 && status < 500 ? 'bad-request' : 'internal';
  }
}
