/**
 * The skill descriptor: plain data plus a handler, like an operation of the data service. The card, the MCP
 * tool list, input validation and the task runner are all derived from the registry of these (./skills/index.ts).
 * No language model: every handler is a deterministic function of its input, the deployment and the store.
 */
import type { Static, TObject } from '@sinclair/typebox';
import type { ReferenceData } from '../core/reference.js';
import type { Store } from '../store/store.js';
import type { AgentAddresses } from './addresses.js';
import type { Deployment } from './deployment.js';
import type { SkillId } from './skills/ids.js';

export type SkillChannel = 'a2a' | 'mcp';

export interface SkillContext {
  readonly deployment: Deployment;
  readonly store: Store;
  readonly reference: ReferenceData;
  readonly now: Date;
  /** The data service's address: citations point at its REST routes. */
  readonly baseUrl: string;
  readonly addresses: AgentAddresses;
  /** The credential calling (quotes and commitments are its own). */
  readonly credentialId: number;
}

/** What a skill answers: a data part (typed JSON) and a readable text part; optionally a reference (a URL part). */
export interface SkillAnswer {
  readonly data: Record<string, unknown>;
  readonly text: string;
  readonly reference?: { readonly url: string; readonly mediaType: string; readonly filename: string };
}

export interface SkillDescriptor<I extends TObject = TObject> {
  readonly id: SkillId;
  /** Short human title (A2A skill name, MCP tool title). */
  readonly title: string;
  /** For an agent: what it answers and when to use it. */
  readonly description: string;
  readonly tags: readonly string[];
  /** `message`: answered at once. `task`: a persisted task, read with GetTask until its state is final. */
  readonly answer: 'message' | 'task';
  /** `read` skills are open to licensed (marketplace) credentials; `action` skills are not. */
  readonly kind: 'read' | 'action';
  /** The channels the skill is offered on (MCP tools answer at once, whatever `answer` says for A2A). */
  readonly channels: readonly SkillChannel[];
  /** Offered only when the deployment turns public procurement lookups on. */
  readonly procurement?: boolean;
  /** The media types of the reference (URL part) it may answer with, for this deployment: its output modes. */
  referenceModes?(deployment: Deployment): readonly string[];
  /** The input schema, for this deployment (enums of its own artifacts and actions). */
  input(deployment: Deployment): I;
  /** Example inputs for the card, for this deployment. */
  examples(deployment: Deployment): Record<string, unknown>[];
  handler(input: Static<I>, ctx: SkillContext): Promise<SkillAnswer>;
}

export type AnySkill = SkillDescriptor<TObject>;

/** Keeps the handler's input typed by the schema while producing a plain descriptor. */
export function defineSkill<I extends TObject>(skill: SkillDescriptor<I>): AnySkill {
  return Object.freeze(skill) as unknown as AnySkill;
}
