/** Agent-host rows as records, the same in every store (a credential's `licensed` is a flag: 0/1 in SQLite). */
import type {
  AgentCommitmentRecord,
  AgentCredentialRecord,
  AgentQuoteRecord,
  AgentTaskRecord,
  DeploymentRecord,
} from '../agent-records.js';
import { flag, int, recordCodec, text, textOrNull } from './record-codec.js';

export const DEPLOYMENT = recordCodec<DeploymentRecord>({
  id: int,
  slug: text,
  status: text,
  spec: text,
  revision: int,
  created_at: text,
  updated_at: text,
});

export const AGENT_CREDENTIAL = recordCodec<AgentCredentialRecord>({
  id: int,
  deployment_id: int,
  channel: text,
  licensed: flag,
  lookup: text,
  hash: text,
  label: textOrNull,
  revoked_at: textOrNull,
  created_at: text,
});

export const AGENT_TASK = recordCodec<AgentTaskRecord>({
  id: text,
  deployment_id: int,
  credential_id: int,
  context_id: text,
  skill: text,
  input: text,
  message: text,
  accepted_output_modes: textOrNull,
  state: text,
  result: textOrNull,
  error: textOrNull,
  worker: textOrNull,
  lease_until: textOrNull,
  attempts: int,
  created_at: text,
  updated_at: text,
});

export const AGENT_QUOTE = recordCodec<AgentQuoteRecord>({
  id: text,
  deployment_id: int,
  credential_id: int,
  action: text,
  quote: text,
  valid_until: text,
  created_at: text,
});

export const AGENT_COMMITMENT = recordCodec<AgentCommitmentRecord>({
  quote_id: text,
  reference: text,
  outcome: text,
  committed_at: text,
});
