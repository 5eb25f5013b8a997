/**
 * A dependency of the service — the store or the shared counters — cannot be reached: a connection refused or
 * lost, a timeout, a server that is starting or failing over. Stores and counters throw this (wrapping the
 * driver's error as `cause`); the core turns it into `service-unavailable` (503 with `Retry-After`) on every
 * channel, and a request refused for it is never charged. Anything else a driver throws (a bad query, a broken
 * constraint, a script error) is a bug and stays `internal`.
 */

export type Dependency = 'store' | 'counters';

/** What `Retry-After` says when a dependency fails: long enough for a reconnection, short enough to notice it. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

export class DependencyUnavailableError extends Error {
  readonly dependency: Dependency;
  /** Seconds a caller should wait before retrying. */
  readonly retryAfter: number;

  constructor(dependency: Dependency, options: { cause?: unknown; retryAfter?: number } = {}) {
    super(`The ${dependency} cannot be reached`, { cause: options.cause });
    this.name = 'DependencyUnavailableError';
    this.dependency = dependency;
    this.retryAfter = options.retryAfter ?? DEPENDENCY_RETRY_AFTER_SECONDS;
  }
}
