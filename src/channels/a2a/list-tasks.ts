/**
 * The parameters of ListTasks (A2A 1.0), read by one validation for every agent this service hosts: the data
 * agent, which has no tasks, and each company agent. ProtoJSON names in camelCase or snake_case; each value checked
 * strictly, -32602 naming the field (docs/a2a.md, Tasks). What a page token means is the agent's: the protocol only
 * says it is a string.
 */
import { instantMs } from '../../lib/calendar.js';
import type { Json } from '../../lib/json.js';
import { paramsError } from './errors.js';

export const LIST_TASKS_DEFAULT_PAGE_SIZE = 50;
export const LIST_TASKS_MAX_PAGE_SIZE = 100;

/**
 * Every A2A 1.0 task state (TASK_STATE_<name>) but UNSPECIFIED, with its number in the A2A proto. A filter may name
 * any of them, a state no task of the agent is ever in too: its page is empty (docs/a2a.md, Tasks).
 */
export const TASK_STATE_NUMBERS = {
  SUBMITTED: 1,
  WORKING: 2,
  COMPLETED: 3,
  FAILED: 4,
  CANCELED: 5,
  INPUT_REQUIRED: 6,
  REJECTED: 7,
  AUTH_REQUIRED: 8,
} as const;
export type TaskStateName = keyof typeof TASK_STATE_NUMBERS;
const STATE_NAMES = Object.keys(TASK_STATE_NUMBERS) as TaskStateName[];

export interface ListTasksQuery {
  readonly contextId: string | undefined;
  readonly status: TaskStateName | undefined;
  /** The instant of `statusTimestampAfter`, as an ISO string in UTC. */
  readonly statusTimestampAfter: string | undefined;
  readonly pageSize: number;
  readonly pageToken: string | undefined;
  readonly historyLength: number | undefined;
  readonly includeArtifacts: boolean;
}

/** RFC 3339 `date-time`: a full date, a time with seconds, optional fractions, and `Z` or an offset. */

/** ListTasks `params`, each field checked; throws -32602 naming the first bad one. */
export function readListTasks(params: Json): ListTasksQuery {
  const value = (camel: string, snake: string) => (params[camel] === undefined ? params[snake] : params[camel]);

  const contextId = value('contextId', 'context_id');
  if (contextId !== undefined && contextId !== null && typeof contextId !== 'string')
    throw paramsError('contextId', 'must be a string');

  const pageToken = value('pageToken', 'page_token');
  if (pageToken !== undefined && pageToken !== null && typeof pageToken !== 'string')
    throw paramsError('pageToken', 'must be a string');

  const includeArtifacts = value('includeArtifacts', 'include_artifacts');
  if (includeArtifacts !== undefined && includeArtifacts !== null && typeof includeArtifacts !== 'boolean') {
    throw paramsError('includeArtifacts', 'must be true or false');
  }

  return {
    contextId: typeof contextId === 'string' && contextId !== '' ? contextId : undefined,
    status: stateOf(params.status),
    statusTimestampAfter: instantOf(value('statusTimestampAfter', 'status_timestamp_after')),
    pageSize: pageSizeOf(value('pageSize', 'page_size')),
    pageToken: typeof pageToken === 'string' && pageToken !== '' ? pageToken : undefined,
    historyLength: historyLengthOf(value('historyLength', 'history_length')),
    includeArtifacts: includeArtifacts === true,
  };
}

/** `historyLength` of GetTask, SendMessage's configuration and ListTasks: absent, or an integer ≥ 0. */
export function historyLengthOf(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw paramsError('historyLength', 'must be an integer ≥ 0');
  return value;
}

function pageSizeOf(value: unknown): number {
  if (value === undefined || value === null) return LIST_TASKS_DEFAULT_PAGE_SIZE;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > LIST_TASKS_MAX_PAGE_SIZE) {
    throw paramsError('pageSize', `must be an integer from 1 to ${LIST_TASKS_MAX_PAGE_SIZE}`);
  }
  return value;
}

function stateOf(status: unknown): TaskStateName | undefined {
  if (status === undefined || status === null || status === '' || status === 0 || status === 'TASK_STATE_UNSPECIFIED')
    return undefined;
  if (typeof status === 'number') {
    const name = STATE_NAMES.find((s) => TASK_STATE_NUMBERS[s] === status);
    if (name) return name;
  }
  if (typeof status === 'string' && status.startsWith('TASK_STATE_')) {
    const name = status.slice('TASK_STATE_'.length) as TaskStateName;
    if (STATE_NAMES.includes(name)) return name;
  }
  throw paramsError('status', `must be a task state: ${STATE_NAMES.map((s) => `TASK_STATE_${s}`).join(', ')}`);
}

function instantOf(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const ms = typeof value === 'string' ? instantMs(value) : undefined;
  if (ms !== undefined) return new Date(ms).toISOString();
  throw paramsError('statusTimestampAfter', 'must be an RFC 3339 timestamp, e.g. 2026-01-31T12:00:00Z');
}
