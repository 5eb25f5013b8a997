/**
 * One way to run a skill, whatever the channel (an A2A message, an A2A task, an MCP tool call): may this
 * credential call it (licensed credentials: read skills only), is its input valid (the deployment's schema,
 * strictly, as JSON), then the handler with its context.
 */
import type { TObject } from '@sinclair/typebox';
import type { Counters } from '../access/counters.js';
import type { Core } from '../core/core.js';
import type { ReferenceData } from '../core/reference.js';
import { validateInput } from '../core/validate.js';
import { ApiError } from '../lib/errors.js';
import type { Store } from '../store/store.js';
import type { AgentLimits } from './admission.js';
import type { Deployment } from './deployment.js';
import type { Deployments } from './deployments.js';
import type { AnySkill, SkillAnswer } from './skill.js';

export interface HostDeps {
  readonly core: Core;
  readonly store: Store;
  readonly counters: Counters;
  readonly deployments: Deployments;
  readonly limits: AgentLimits;
  readonly clock: () => number;
}

/** 403 insufficient-scope for an action skill called with a licensed (marketplace) credential. */
export function checkCallable(skill: AnySkill, licensed: boolean): void {
  if (licensed && skill.kind !== 'read') {
    throw new ApiError('insufficient-scope', {
      detail: `${skill.id} is an action: a licensed (marketplace) credential reaches the read skills only.`,
      featureKey: skill.id,
    });
  }
}

/** A validated copy of the input (defaults filled in); 422 naming each bad field. */
export function validSkillInput(
  deployment: Deployment,
  skill: AnySkill,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const copy = structuredClone(input);
  validateInput(deployment.inputSchema(skill) as TObject, copy, 'json');
  return copy;
}

export async function runSkill(
  deps: HostDeps,
  call: {
    deployment: Deployment;
    skill: AnySkill;
    input: Record<string, unknown>;
    credentialId: number;
    reference: ReferenceData;
  },
): Promise<SkillAnswer> {
  return call.skill.handler(call.input as never, {
    deployment: call.deployment,
    store: deps.store,
    reference: call.reference,
    now: new Date(deps.clock()),
    baseUrl: deps.core.baseUrl,
    addresses: call.deployment.addresses,
    credentialId: call.credentialId,
  });
}
