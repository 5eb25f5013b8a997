/**
 * The state of one limit (the per-minute rate or the monthly quota) as an answer reports it in its `RateLimit`
 * headers (docs/api.md, Limits and quota).
 */
export interface LimitState {
  readonly limit: number;
  /** Requests left in the window after this one. */
  readonly remaining: number;
  /** Seconds until the window resets. */
  readonly resetSeconds: number;
}
