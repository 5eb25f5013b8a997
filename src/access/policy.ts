/**
 * Who may call what. One rule set serves both call time (`checkAccess` throws the refusal) and listing
 * (`canCall` filters the registry for tool lists, extended cards and docs).
 */
import type { Domain, Scope } from '../lib/domains.js';
import { ApiError } from '../lib/errors.js';
import type { PlanRecord } from '../store/records.js';
import type { Caller } from './caller.js';

/** What the rules need to know of an operation (the registry's descriptors are such). */
export interface Gated {
  readonly name: string;
  /** null: open to every valid credential (`me`). */
  readonly domain: Domain | null;
  readonly scope: Scope | null;
}

export function checkAccess(op: Gated, caller: Caller, betaGates: ReadonlySet<string>, baseUrl: string): void {
  const refusal = refusalFor(op, caller, betaGates, baseUrl);
  if (refusal) throw refusal;
}

export function canCall(op: Gated, caller: Caller, betaGates: ReadonlySet<string>): boolean {
  return refusalFor(op, caller, betaGates, '') === undefined;
}

/** The refusal for a plan without data API access (per call on REST, per HTTP request on A2A and MCP). */
export function apiAccessRefusal(plan: PlanRecord, baseUrl: string): ApiError {
  return new ApiError('api-access-required', {
    detail: `The ${plan.code} plan has no data API access.`,
    featureKey: 'api_access',
    upgradeUrl: `${baseUrl}/docs#plans`,
  });
}

function refusalFor(op: Gated, caller: Caller, betaGates: ReadonlySet<string>, baseUrl: string): ApiError | undefined {
  if (op.domain === null) return undefined; // `me` is open to every valid key, so a caller can learn its plan.
  const { plan } = caller;
  if (!plan.api_access) return apiAccessRefusal(plan, baseUrl);
  if (!caller.account.beta && (betaGates.has(op.name) || betaGates.has(op.domain))) {
    return new ApiError('beta-access-required', {
      detail: `${op.name} is in beta; the account is not in the beta group.`,
      featureKey: op.name,
    });
  }
  if (!plan.domains.includes(op.domain)) {
    return new ApiError('domain-not-in-plan', {
      detail: `The ${plan.code} plan does not include the ${op.domain} domain.`,
      featureKey: op.domain,
      upgradeUrl: `${baseUrl}/docs#plans`,
    });
  }
  if (op.scope !== null && !caller.scopes.includes(op.scope)) {
    if (caller.oauth) {
      // Step-up (docs/oauth.md): the scopes already granted and the one needed, for the client to ask the holder again.
      return new ApiError('insufficient-scope', {
        detail: `This access token lacks the ${op.scope} scope.`,
        featureKey: op.scope,
        challenge: 'insufficient_scope',
        scopes: [...caller.scopes, op.scope],
      });
    }
    return new ApiError('insufficient-scope', {
      detail: `This API key lacks the ${op.scope} scope.`,
      featureKey: op.scope,
    });
  }
  return undefined;
}
