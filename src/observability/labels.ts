/**
 * The bounded label values of the metrics (docs/deploy.md, Operating): every label takes one of these or `other`,
 * never an account, a path or free text, so a series count stays fixed whatever the traffic.
 */

/** The channel a request came by (the request log's `channel`). */
export const CHANNELS = ['rest', 'a2a', 'mcp', 'agent-a2a', 'agent-mcp', 'web'] as const;

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** A request that ran no operation (a page, a tool list, a refusal before the call). */
export const NO_OPERATION = 'none';

/** Why a request was refused by the limits: the per-minute limit (an account's, an address's) or the month's quota. */
export const REFUSAL_KINDS = ['rate_limited', 'quota_exceeded'] as const;

/** Why a credential was not accepted. */
export const AUTH_FAILURE_KINDS = ['missing_credential', 'invalid_api_key', 'invalid_token'] as const;

/** The store's areas, as ../store/sql-store.ts divides it: `data` is the datasets, signals and the journal. */
export const STORE_AREAS = [
  'data',
  'access',
  'reference',
  'agents',
  'console',
  'oauth',
  'pipeline',
  'webhooks',
] as const;

/** How a statement ended: answered, failed as a statement, or the store was unreachable or too slow. */
export const STATEMENT_OUTCOMES = ['ok', 'error', 'unavailable'] as const;

/** The connection pools of the PostgreSQL store, and the state of their connections. */
export const POOLS = ['primary', 'replica'] as const;
export const POOL_STATES = ['in_use', 'idle', 'waiting'] as const;

/** The Redis commands the service sends; any other is counted as `other`. */
export const REDIS_COMMANDS = [
  'evalsha',
  'eval',
  'get',
  'set',
  'del',
  'zrem',
  'incrby',
  'expire',
  'ping',
  'publish',
  'subscribe',
  'script',
  'info',
  'other',
] as const;

/** What became of one webhook delivery attempt run (docs/webhooks.md). */
export const WEBHOOK_OUTCOMES = ['delivered', 'retrying', 'failed'] as const;

/** `value` when it is one of `allowed`, else `other` (or the fallback given). */
export function bounded<T extends string>(value: string, allowed: readonly T[], fallback = 'other'): string {
  return (allowed as readonly string[]).includes(value) ? value : fallback;
}
