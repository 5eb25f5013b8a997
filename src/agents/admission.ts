/**
 * Who calls a company agent, checked once per HTTP request, in order: a browser page (Origin → 403), the
 * deployment (unknown slug, not live, or without this channel → 404), the credential (missing, wrong or revoked
 * → 401; of another deployment or of the other channel → 404, so that a credential never tells what else exists),
 * then the limits: per credential and per deployment, per minute (429 with Retry-After). These limits are the
 * host's own, separate from the data service's plans; they go through the same `Counters` under their own keys.
 */
import type { FastifyRequest } from 'fastify';
import { parseKeySecret, sameHash } from '../access/api-keys.js';
import { credentialOf } from '../access/authenticate.js';
import type { Counters, RateDecision } from '../access/counters.js';
import { requestFacts } from '../channels/http/request-facts.js';
import type { Core } from '../core/core.js';
import type { ReferenceData } from '../core/reference.js';
import { ApiError } from '../lib/errors.js';
import { lookUp } from '../lib/storable-text.js';
import type { AgentChannel, AgentCredentialRecord } from '../store/agent-records.js';
import type { Store } from '../store/store.js';
import type { Deployment } from './deployment.js';
import type { Deployments } from './deployments.js';

export interface AgentLimits {
  /** Requests per minute per credential (docs/agents.md, Limits: 60). */
  readonly perCredential: number;
  /** Requests per minute per deployment, all its credentials and channels together (200). */
  readonly perDeployment: number;
}

export const DEFAULT_AGENT_LIMITS: AgentLimits = { perCredential: 60, perDeployment: 200 };

/** An admitted request: the deployment, the credential and the state of both limits. */
export interface AgentCaller {
  readonly deployment: Deployment;
  readonly credential: AgentCredentialRecord;
  readonly reference: ReferenceData;
  readonly nowMs: number;
  readonly credentialLimit: RateDecision;
  readonly deploymentLimit: RateDecision;
}

export interface AdmissionDeps {
  readonly core: Core;
  readonly store: Store;
  readonly counters: Counters;
  readonly deployments: Deployments;
  readonly limits: AgentLimits;
  readonly clock: () => number;
}

export function slugOf(request: FastifyRequest): string {
  return (request.params as { slug?: string }).slug ?? '';
}

/** The live deployment of this request's slug that has `channel`, or a 404. */
export async function liveDeployment(
  deps: AdmissionDeps,
  request: FastifyRequest,
  channel: AgentChannel | undefined,
  nowMs: number,
) {
  const reference = await deps.core.reference();
  const deployment = await lookUp(() => deps.deployments.get(slugOf(request), reference, nowMs));
  if (!deployment?.live || (channel !== undefined && !deployment.hasChannel(channel))) {
    throw new ApiError('not-found', {
      detail:
        `No live agent${channel === undefined ? '' : ` with the ${channel.toUpperCase()} channel`} ` +
        `at ${request.url.split('?')[0]}.`,
    });
  }
  return { deployment, reference };
}

export async function admitAgentCaller(
  deps: AdmissionDeps,
  request: FastifyRequest,
  channel: AgentChannel,
): Promise<AgentCaller> {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    throw new ApiError('origin-not-allowed', {
      detail: `Requests from web pages (Origin: ${origin}) are refused: keep the agent credential on a server.`,
    });
  }
  const nowMs = deps.clock();
  const { deployment, reference } = await liveDeployment(deps, request, channel, nowMs);
  const secret = credentialOf(requestFacts(request));
  const parsed = secret === undefined ? undefined : parseKeySecret(secret);
  const credential = parsed && (await deps.store.agents.findAgentCredential(parsed.lookup));
  if (!parsed || !credential || !sameHash(credential.hash, parsed.hash) || credential.revoked_at !== null) {
    // A failed credential still costs the address one request, so credentials cannot be guessed at full speed.
    await deps.core.limitAnonymous(request.ip);
    throw new ApiError('invalid-auth', {
      detail:
        secret === undefined
          ? 'No agent credential was sent. Send `Authorization: Bearer sk_live_…`.'
          : 'The agent credential is not valid: it is wrong or revoked.',
    });
  }
  if (credential.deployment_id !== deployment.id || credential.channel !== channel) {
    throw new ApiError('not-found', {
      detail:
        `No live agent with the ${channel.toUpperCase()} channel at ${request.url.split('?')[0]} for this ` +
        `credential.`,
    });
  }
  const credentialLimit = await deps.counters.hitRate(
    `agent-credential:${credential.id}`,
    deps.limits.perCredential,
    nowMs,
  );
  if (!credentialLimit.allowed) throw rateLimited(credentialLimit, 'this credential');
  const deploymentLimit = await deps.counters.hitRate(
    `agent-deployment:${deployment.id}`,
    deps.limits.perDeployment,
    nowMs,
  );
  if (!deploymentLimit.allowed) throw rateLimited(deploymentLimit, 'this agent');
  return { deployment, credential, reference, nowMs, credentialLimit, deploymentLimit };
}

function rateLimited(decision: RateDecision, whose: string): ApiError {
  return new ApiError('rate-limited', {
    detail:
      `The limit of ${decision.limit} requests per minute for ${whose} is reached; retry ` +
      `in ${decision.retryAfterSeconds} s.`,
    retryAfter: decision.retryAfterSeconds,
  });
}

/** `RateLimit-Policy` and `RateLimit` (IETF draft) for both limits. */
export function agentLimitHeaders(caller: AgentCaller | undefined): Record<string, string> {
  if (!caller) return {};
  const { credentialLimit: c, deploymentLimit: d } = caller;
  return {
    'ratelimit-policy': `"credential";q=${c.limit};w=60, "deployment";q=${d.limit};w=60`,
    ratelimit: `"credential";r=${c.remaining};t=${c.resetSeconds}, "deployment";r=${d.remaining};t=${d.resetSeconds}`,
  };
}
