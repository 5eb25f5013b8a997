/**
 * Every company deployment as an A2A agent (one object for the whole host: the deployment comes with the
 * caller). The protocol is the data service's (`channels/a2a/a2a-protocol.ts`); what differs is here: skills of
 * the deployment's card, answered with a message or with a persisted task, and the credential's own tasks.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type A2aAgent, type MethodAnswer, paramsError, taskNotFound } from '../channels/a2a/a2a-protocol.js';
import { A2A_CODES, protocolError } from '../channels/a2a/errors.js';
import {
  type ListTasksQuery,
  historyLengthOf as readHistoryLength,
  type TaskStateName,
} from '../channels/a2a/list-tasks.js';
import { acceptedOutputModes, answerModes } from '../channels/a2a/output-modes.js';
import type { SkillCall } from '../channels/a2a/send-message.js';
import type { ErrorPlace } from '../lib/errors.js';
import type { Json } from '../lib/json.js';
import { lookUp } from '../lib/storable-text.js';
import {
  AGENT_TASK_STATES,
  type AgentTaskRecord,
  type AgentTaskState,
  FINAL_TASK_STATES,
} from '../store/agent-records.js';
import { type AgentCaller, admitAgentCaller, agentLimitHeaders } from './admission.js';
import { checkCallable, type HostDeps, runSkill, validSkillInput } from './execute.js';
import type { AnySkill } from './skill.js';
import type { TaskRunner } from './tasks/runner.js';
import { messageResult, taskJson } from './tasks/wire.js';

/** Every state a task is stored in is one ListTasks filters by (a compile-time check); not the other way round. */
const _storedStatesAreStates: AgentTaskState extends TaskStateName ? true : never = true;

/** A state tasks are stored in; INPUT_REQUIRED and AUTH_REQUIRED are never. */
function isStoredState(state: TaskStateName): state is AgentTaskState {
  return (AGENT_TASK_STATES as readonly string[]).includes(state);
}

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
    return {
      baseUrl: this.#deps.core.baseUrl,
      requestId: request.id,
      instance: request.url.split('?')[0].replace(/\/$/, ''),
    };
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

  skillIds(caller: AgentCaller): readonly string[] {
    return caller.deployment.skillIds('a2a');
  }

  async sendMessage(caller: AgentCaller, call: SkillCall<AnySkill>, params: Json): Promise<MethodAnswer> {
    if (call.taskId !== undefined) {
      const task = await this.#ownTask(caller, call.taskId);
      throw protocolError(
        A2A_CODES.unsupportedOperation,
        'UNSUPPORTED_OPERATION',
        `Task ${task.id} takes no further messages (it is TASK_STATE_${task.state}): each skill call is a new ` +
          `message without taskId.`,
        { taskId: task.id },
      );
    }
    const { deployment, credential, reference } = caller;
    const { skill } = call;
    // Before anything runs or a task is created: an answer the client can take no part of is refused (-32005).
    const accepted = acceptedOutputModes(params);
    answerModes(accepted, deployment.outputModes(skill), skill.id);
    checkCallable(skill, credential.licensed);
    const input = validSkillInput(deployment, skill, call.input);
    if (skill.answer === 'message') {
      const answer = await runSkill(this.#deps, { deployment, skill, input, credentialId: credential.id, reference });
      return { result: messageResult(skill.id, answer, call.contextId, accepted) };
    }
    const task = await this.#deps.store.agents.createAgentTask({
      id: randomUUID(),
      deployment_id: deployment.id,
      credential_id: credential.id,
      context_id: call.contextId ?? randomUUID(),
      skill: skill.id,
      input: JSON.stringify(input),
      message: JSON.stringify(call.message),
      accepted_output_modes: accepted.length === 0 ? null : JSON.stringify(accepted),
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
    return caller.deployment.cards.extended(
      caller.deployment.callable('a2a', caller.credential.licensed).map((skill) => skill.id),
    );
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
        `Task ${id} is final (TASK_STATE_${task.state}): it cannot be canceled.`,
        {
          taskId: id,
        },
      );
    }
    return JSON.stringify(taskJson(canceled));
  }

  /** The credential's tasks, status timestamp descending; `nextPageToken` is "" on the last page. */
  async listTasks(caller: AgentCaller, query: ListTasksQuery): Promise<string> {
    const after = query.pageToken === undefined ? undefined : positionOf(query.pageToken);
    const { pageSize } = query;
    if (query.status !== undefined && !isStoredState(query.status)) {
      return JSON.stringify({ tasks: [], nextPageToken: '', pageSize, totalSize: 0 });
    }
    const filter = {
      credentialId: caller.credential.id,
      contextId: query.contextId,
      state: query.status,
      updatedSince: query.statusTimestampAfter,
    };
    const rows = await this.#deps.store.agents.listAgentTasks(filter, { after, limit: pageSize + 1 });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return JSON.stringify({
      tasks: page.map((task) =>
        taskJson(task, { includeArtifacts: query.includeArtifacts, historyLength: query.historyLength }),
      ),
      nextPageToken:
        rows.length > pageSize ? Buffer.from(JSON.stringify([last.updated_at, last.id])).toString('base64url') : '',
      pageSize,
      totalSize: await this.#deps.store.agents.countAgentTasks(filter),
    });
  }

  /** A task of this credential (another credential's task is as unknown as a made-up id). */
  async #ownTask(caller: AgentCaller, id: string): Promise<AgentTaskRecord> {
    const task = await lookUp(() => this.#deps.store.agents.getAgentTask(id));
    if (!task || task.credential_id !== caller.credential.id) throw taskNotFound(id);
    return task;
  }
}

function historyLengthOf(params: Json): number | undefined {
  return readHistoryLength(params.historyLength ?? params.history_length);
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
