/**
 * The company-agent host: every published deployment at `{agents_url}/<slug>/…`, served by this process —
 *
 *   GET  …/<slug>/.well-known/agent-card.json   the deployment's card (public; 404 unless live)
 *   POST …/<slug>/a2a                            A2A 1.0 JSON-RPC (the data service's protocol layer)
 *   POST …/<slug>/mcp                            MCP, stateless Streamable HTTP (the same layer as /mcp)
 *   GET  …/<slug>/artifacts/<id>                 a released brief (what get_artifact refers to)
 *
 * and the task runner that executes the tasks of every deployment, resuming on start those a stopped process
 * left behind.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counters } from '../access/counters.js';
import { mountA2aEndpoint, sendCard } from '../channels/a2a/a2a-protocol.js';
import { A2A_PATH, AGENT_CARD_PATH } from '../channels/a2a/card.js';
import type { CardSigner } from '../channels/a2a/card-signature.js';
import { refuseMethodsOtherThanGet } from '../channels/http/methods.js';
import { sendProblem } from '../channels/http/problem-reply.js';
import { mountMcpEndpoint } from '../channels/mcp/mcp-protocol.js';
import { MCP_PATH } from '../channels/mcp/server-facts.js';
import type { Config } from '../config.js';
import type { Core } from '../core/core.js';
import { ApiError, toApiError } from '../lib/errors.js';
import { serviceIconUrl } from '../lib/service.js';
import type { AgentTaskRecord } from '../store/agent-records.js';
import type { Store } from '../store/store.js';
import { HostA2aAgent } from './a2a-agent.js';
import { agentsMountPath } from './addresses.js';
import { type AgentLimits, DEFAULT_AGENT_LIMITS, liveDeployment } from './admission.js';
import { Deployments } from './deployments.js';
import { type HostDeps, runSkill } from './execute.js';
import { HostMcpServer } from './mcp-agent.js';
import { type TaskHooks, type TaskOutcome, TaskRunner } from './tasks/runner.js';

export interface AgentHostOptions {
  readonly limits?: AgentLimits;
  readonly taskHooks?: TaskHooks;
  /** How long a blocking SendMessage waits for its task to be final before answering with it as it is. */
  readonly blockingWaitMs?: number;
  /** Tasks run at once by this process, and the lease and sweep periods of the task runner (tests shorten them). */
  readonly concurrency?: number;
  readonly leaseMs?: number;
  readonly sweepMs?: number;
}

export interface AgentHost {
  readonly runner: TaskRunner;
  close(): Promise<void>;
}

export function registerAgentHost(
  http: FastifyInstance,
  deps: {
    config: Config;
    core: Core;
    store: Store;
    counters: Counters;
    clock: () => number;
    /** Signs every deployment's cards. */
    signCard: CardSigner;
    options?: AgentHostOptions;
  },
): AgentHost {
  const { config, core, store, counters, clock, signCard, options = {} } = deps;
  const host: HostDeps = {
    core,
    store,
    counters,
    clock,
    deployments: new Deployments(store, {
      agentsUrl: config.agentsUrl,
      iconUrl: serviceIconUrl(config.baseUrl),
      signCard,
    }),
    limits: options.limits ?? DEFAULT_AGENT_LIMITS,
  };
  const runner = new TaskRunner({
    store,
    clock,
    run: (task) => runTask(host, task),
    hooks: options.taskHooks,
    concurrency: options.concurrency,
    leaseMs: options.leaseMs,
    sweepMs: options.sweepMs,
  });

  const base = `${agentsMountPath(config.agentsUrl)}/:slug`;
  http.get(`${base}${AGENT_CARD_PATH}`, (request, reply) => serveCard(host, request, reply));
  http.get(`${base}/artifacts/:artifact`, (request, reply) => serveArtifact(host, request, reply));
  for (const url of [`${base}${AGENT_CARD_PATH}`, `${base}/artifacts/:artifact`]) {
    refuseMethodsOtherThanGet(http, url, config.baseUrl);
  }
  mountA2aEndpoint(http, `${base}${A2A_PATH}`, new HostA2aAgent(host, runner, options.blockingWaitMs ?? 10_000));
  mountMcpEndpoint(http, `${base}${MCP_PATH}`, new HostMcpServer(host));

  runner.start();
  return { runner, close: () => runner.close() };
}

/** A task's skill, run: COMPLETED with the answer; REJECTED when the request cannot be honoured; FAILED on a fault. */
async function runTask(host: HostDeps, task: AgentTaskRecord): Promise<TaskOutcome> {
  const reference = await host.core.reference();
  const deployment = await host.deployments.byId(task.deployment_id, reference, host.clock());
  const skill = deployment?.skill(task.skill, 'a2a');
  if (!deployment || !skill) {
    return {
      state: 'FAILED',
      result: null,
      error: JSON.stringify({ reason: 'SKILL_GONE', detail: `The agent no longer offers ${task.skill}.` }),
    };
  }
  try {
    const input = JSON.parse(task.input) as Record<string, unknown>;
    const answer = await runSkill(host, { deployment, skill, input, credentialId: task.credential_id, reference });
    return { state: 'COMPLETED', result: JSON.stringify(answer), error: null };
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.kind === 'internal' || apiError.kind === 'service-unavailable') {
      return {
        state: 'FAILED',
        result: null,
        error: JSON.stringify({ reason: 'INTERNAL', detail: 'The task failed; retry later.' }),
      };
    }
    const reason = apiError.kind.toUpperCase().replaceAll('-', '_');
    return {
      state: 'REJECTED',
      result: null,
      error: JSON.stringify({ reason, detail: apiError.message, errors: apiError.errors ?? [] }),
    };
  }
}

/** Public, counted against the client address; 404 unless the deployment is live and has the A2A channel. */
async function serveCard(host: HostDeps, request: FastifyRequest, reply: FastifyReply) {
  try {
    await host.core.limitAnonymous(request.ip);
    const { deployment } = await liveDeployment(host, request, 'a2a', host.clock());
    return await sendCard(deployment.cards, request, reply);
  } catch (error) {
    return sendProblem(request, reply, toApiError(error), { baseUrl: host.core.baseUrl });
  }
}

async function serveArtifact(host: HostDeps, request: FastifyRequest, reply: FastifyReply) {
  try {
    await host.core.limitAnonymous(request.ip);
    const { deployment } = await liveDeployment(host, request, undefined, host.clock());
    const id = (request.params as { artifact: string }).artifact;
    const artifact = deployment.spec.artifacts.find((a) => a.id === id && a.released);
    if (!artifact) throw new ApiError('not-found', { detail: `No released brief "${id}" of this agent.` });
    return reply
      .header('cache-control', 'public, max-age=300')
      .type(`${artifact.media_type}; charset=utf-8`)
      .send(artifact.body);
  } catch (error) {
    return sendProblem(request, reply, toApiError(error), { baseUrl: host.core.baseUrl });
  }
}
