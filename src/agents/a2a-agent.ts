/**
 * Every company deployment as an A2A agent (one object for the whole host: the deployment comes with the
 * caller). The protocol is the data service's (`channels/a2a/a2a-protocol.ts`); what differs is here: skills of
 * the deployment's card, answered with a message or with a persisted task, and the credential's own tasks.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type A2aAgent, type Json, type MethodAnswer, paramsError, taskNotFound } from '../channels/a2a/a2a-protocol.js';
import { A2A_CODES, type ErrorPlace, protocolError } from '../channels/a2a/errors.js';
import type { SkillCall } from '../channels/a2a/send-message.js';
import { type AgentTaskRecord, type AgentTaskState, FINAL_TASK_STATES } from '../store/agent-records.js';
import { type AgentCaller, admitAgentCaller, agentLimitHeaders } from './admission.js';
import { checkCallable, type HostDeps, runSkill, validSkillInput } from './execute.js';
import type { AnySkill } from './skill.js';
import type { TaskRunner } from './tasks/runner.js';
import { messageResult, taskJson } from './tasks/wire.js';

const TASK_STATES: readonly AgentTaskState[] = ['SUBMITTED', 'WORKING', 'COMPLETED', 'FAILED', 'CANCELED', 'REJECTED'];
/** TaskState numbers of the A2A proto, for clients that send enums as integers. */
const STATE_NUMBERS: Record<number, AgentTaskState> = {
  1: 'SUBMITTED',
  2: 'WORKING',
  3: 'COMPLETED',
  4: 'FAILED',
  5: 'CANCELED',
  7: 'REJECTED',
};

export class HostA2aAgent implements A2aAgent<AgentCaller, AnySkill> {
  readonly #deps: HostDeps;
  readonly #runner: TaskRunner;
  readonly #blockingWaitMs: number;

  constructor(deps: HostDeps, runner: TaskRunner, blockingWaitMs: number) {
    this.#deps = deps;
    this.#runner = runner;
    this.#blockingWaitMs = blockingWaitMs;
  }

  errorPlace(request: FastifyRequest): ErrorPlace {
    return { baseUrl: this.#deps.core.baseUrl, requestId: request.id, instance: request.url.split('?')[0].replace(/\/$/, '') };
  }

  admit(request: FastifyRequest): Promise<AgentCaller> {
    return admitAgentCaller(this.#deps, request, 'a2a');
  }

  headers(caller: AgentCaller | undefined): Record<string, string> {
    return agentLimitHeaders(caller);
  }

  skill(caller: AgentCaller, id: string): AnySkill | undefined {
    return caller.deployment.skill(id, 'a2a');
  }

  async sendMessage(caller: AgentCaller, call: SkillCall<AnySkill>, params: Json): Promise<MethodAnswer> {
    if (call.taskId !== undefined) {
      const task = await this.#ownTask(caller, call.taskId);
      throw protocolError(
        A2A_CODES.unsupportedOperation,
        'UNSUPPORTED_OPERATION',
        `Task ${task.id} takes no further messages (it is ${task.state}): each skill call is a new message without taskId.`,
        { taskId: task.id },
      );
    }
    const { deployment, credential, reference } = caller;
    const { skill } = call;
    checkCallable(skill, credential.licensed);
    const input = validSkillInput(deployment, skill, call.input);
    if (skill.answer === 'message') {
      const answer = await runSkill(this.#deps, { deployment, skill, input, credentialId: credential.id, reference });
      return { result: messageResult(skill.id, answer, call.contextId) };
    }
    const task = await this.#deps.store.agents.createAgentTask({
      id: randomUUID(),
      deployment_id: deployment.id,
      credential_id: credential.id,
      context_id: call.contextId ?? randomUUID(),
      skill: skill.id,
      input: JSON.stringify(input),
      message: JSON.stringify(call.message),
      now: new Date(this.#deps.clock()).toISOString(),
    });
    const configuration = (params.configuration ?? {}) as Json;
    const returnImmediately = (configuration.returnImmediately ?? configuration.return_immediately) === true;
    const finished = returnImmediately ? undefined : this.#runner.waitFor(task.id, this.#blockingWaitMs);
    this.#runner.enqueue(task.id);
    await finished;
    const current = (await this.#deps.store.agents.getAgentTask(task.id)) as AgentTaskRecord;
    return { result: JSON.stringify({ task: taskJson(current, { historyLength: historyLengthOf(configuration) }) }) };
  }

  async extendedCard(caller: AgentCaller): Promise<string> {
    return caller.deployment.cards.extended(caller.deployment.callable('a2a', caller.credential.licensed).map((skill) => skill.id));
  }

  async getTask(caller: AgentCaller, id: string, params: Json): Promise<string> {
    return JSON.stringify(taskJson(await this.#ownTask(caller, id), { historyLength: historyLengthOf(params) }));
  }

  async cancelTask(caller: AgentCaller, id: string): Promise<string> {
    const task = await this.#ownTask(caller, id);
    const canceled = FINAL_TASK_STATES.includes(task.state)
      ? undefined
      : await this.#deps.store.agents.cancelAgentTask(task.id, new Date(this.#deps.clock()).toISOString());
    if (!canceled) {
      throw protocolError(
        A2A_CODES.taskNotCancelable,
        'TASK_NOT_CANCELABLE',
        `Task ${id} is final (${task.state}): it cannot be canceled.`,
        {
          taskId: id,
        },
      );
    }
    return JSON.stringify(taskJson(canceled));
  }

  /** The credential's tasks, status timestamp descending; `nextPageToken` is "" on the last page. */
  async listTasks(caller: AgentCaller, params: Json, pageSize: number): Promise<string> {
    const contextId = params.contextId ?? params.context_id;
    if (contextId !== undefined && typeof contextId !== 'string') throw paramsError('contextId', 'must be a string');
    const statusSince = params.statusTimestampAfter ?? params.status_timestamp_after;
    if (statusSince !== undefined && (typeof statusSince !== 'string' || Number.isNaN(Date.parse(statusSince)))) {
      throw paramsError('statusTimestampAfter', 'must be an RFC 3339 timestamp');
    }
    const filter = {
      credentialId: caller.credential.id,
      contextId: contextId === '' ? undefined : contextId,
      state: stateOf(params.status),
      updatedSince: statusSince === undefined ? undefined : new Date(statusSince as string).toISOString(),
    };
    const token = params.pageToken ?? params.page_token;
    const after = token === undefined || token === '' ? undefined : positionOf(token);
    const rows = await this.#deps.store.agents.listAgentTasks(filter, { after, limit: pageSize + 1 });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const includeArtifacts = (params.includeArtifacts ?? params.include_artifacts) === true;
    return JSON.stringify({
      tasks: page.map((task) => taskJson(task, { includeArtifacts, historyLength: historyLengthOf(params) })),
      nextPageToken: rows.length > pageSize ? Buffer.from(JSON.stringify([last.updated_at, last.id])).toString('base64url') : '',
      pageSize,
      totalSize: await this.#deps.store.agents.countAgentTasks(filter),
    });
  }

  /** A task of this credential (another credential's task is as unknown as a made-up id). */
  async #ownTask(caller: AgentCaller, id: string): Promise<AgentTaskRecord> {
    const task = await this.#deps.store.agents.getAgentTask(id);
    if (!task || task.credential_id !== caller.credential.id) throw taskNotFound(id);
    return task;
  }
}

function historyLengthOf(params: Json): number | undefined {
  const value = params.historyLength ?? params.history_length;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw paramsError('historyLength', 'must be an integer ≥ 0');
  return value;
}

function stateOf(status: unknown): AgentTaskState | undefined {
  if (status === undefined || status === null || status === '' || status === 0 || status === 'TASK_STATE_UNSPECIFIED') return undefined;
  if (typeof status === 'number' && STATE_NUMBERS[status]) return STATE_NUMBERS[status];
  if (typeof status === 'string') {
    const name = status.replace(/^TASK_STATE_/, '') as AgentTaskState;
    if (TASK_STATES.includes(name)) return name;
  }
  throw paramsError('status', `must be a task state: ${TASK_STATES.map((s) => `TASK_STATE_${s}`).join(', ')}`);
}

function positionOf(token: unknown): { updated_at: string; id: string } {
  try {
    const [updatedAt, id] = JSON.parse(Buffer.from(String(token), 'base64url').toString('utf8')) as unknown[];
    if (typeof updatedAt === 'string' && typeof id === 'string') return { updated_at: updatedAt, id };
  } catch {
    // falls through
  }
  throw paramsError('pageToken', 'is not a token this agent issued');
}
