/**
 * Records of the company-agent host (src/agents): deployments, their credentials, tasks, quotes and committed
 * actions. A deployment's configuration is kept as the validated JSON of its file (`spec`); the host reads it
 * through src/agents/deployment-spec.ts, the store never looks inside.
 */

export type DeploymentStatus = 'draft' | 'live' | 'paused';
export type AgentChannel = 'a2a' | 'mcp';
/**
 * The A2A 1.0 TaskState names a company agent's task is stored in, without the `TASK_STATE_` prefix (never
 * INPUT_REQUIRED or AUTH_REQUIRED: a skill asks nothing back).
 */
export const AGENT_TASK_STATES = ['SUBMITTED', 'WORKING', 'COMPLETED', 'FAILED', 'REJECTED', 'CANCELED'] as const;
export type AgentTaskState = (typeof AGENT_TASK_STATES)[number];

export const FINAL_TASK_STATES: readonly AgentTaskState[] = ['COMPLETED', 'FAILED', 'REJECTED', 'CANCELED'];

export interface DeploymentRecord {
  id: number;
  slug: string;
  status: DeploymentStatus;
  /** The deployment file, validated, as JSON text. */
  spec: string;
  /** Moves on every change (spec or status): hosts rebuild what they derived from the deployment. */
  revision: number;
  created_at: string;
  updated_at: string;
}

export interface AgentCredentialRecord {
  id: number;
  deployment_id: number;
  channel: AgentChannel;
  /** A marketplace credential: read skills only. */
  licensed: boolean;
  /** The public part of the secret used to find it (as for API keys). */
  lookup: string;
  /** SHA-256 of the whole secret, hex. */
  hash: string;
  label: string | null;
  revoked_at: string | null;
  created_at: string;
}

export type NewAgentCredential = Omit<AgentCredentialRecord, 'id' | 'revoked_at' | 'created_at'> & { now: string };

export interface AgentTaskRecord {
  id: string;
  deployment_id: number;
  credential_id: number;
  context_id: string;
  skill: string;
  /** JSON: the skill's input. */
  input: string;
  /** JSON: the caller's message, kept as the task's history. */
  message: string;
  /** JSON: the media types the caller accepts for the artifact's parts (`acceptedOutputModes`); null for any. */
  accepted_output_modes: string | null;
  state: AgentTaskState;
  /** JSON: the skill's answer `{data, text}` once COMPLETED. */
  result: string | null;
  /** JSON: why, once FAILED or REJECTED: `{reason, detail, errors?}`. */
  error: string | null;
  /** The process that claimed it, while WORKING. */
  worker: string | null;
  /** The claim holds until this instant; after it, another process may take the task over. */
  lease_until: string | null;
  /** Times a process started running it. */
  attempts: number;
  created_at: string;
  /** The status timestamp: when the state last changed. */
  updated_at: string;
}

export type NewAgentTask = Pick<
  AgentTaskRecord,
  'id' | 'deployment_id' | 'credential_id' | 'context_id' | 'skill' | 'input' | 'message' | 'accepted_output_modes'
> & {
  now: string;
};

export interface AgentTaskFilter {
  credentialId: number;
  contextId?: string;
  state?: AgentTaskState;
  /** Only tasks whose status changed at or after this instant. */
  updatedSince?: string;
}

/** Position in a task list (status timestamp descending, then id descending). */
export interface AgentTaskPosition {
  updated_at: string;
  id: string;
}

export interface AgentQuoteRecord {
  id: string;
  deployment_id: number;
  credential_id: number;
  action: string;
  /** JSON: the quote as the caller got it (price, validity, terms, what it is for). */
  quote: string;
  valid_until: string;
  created_at: string;
}

export interface AgentCommitmentRecord {
  quote_id: string;
  /** The reference the caller quotes back to the company. */
  reference: string;
  /** JSON: the outcome returned to the caller (the same on every later commit). */
  outcome: string;
  committed_at: string;
}
