/**
 * Agent-host rows as records, the same in every store. A credential's `licensed` is 0/1 in SQLite and a boolean
 * in PostgreSQL; `Boolean` reads both.
 */
import type {
  AgentChannel,
  AgentCredentialRecord,
  AgentTaskRecord,
  AgentTaskState,
  DeploymentRecord,
  DeploymentStatus,
} from '../agent-records.js';
import { type Row, textOrNull } from './row-values.js';

export function toDeployment(row: Row): DeploymentRecord {
  return {
    id: Number(row.id),
    slug: String(row.slug),
    status: row.status as DeploymentStatus,
    spec: String(row.spec),
    revision: Number(row.revision),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export function toCredential(row: Row): AgentCredentialRecord {
  return {
    id: Number(row.id),
    deployment_id: Number(row.deployment_id),
    channel: row.channel as AgentChannel,
    licensed: Boolean(row.licensed),
    lookup: String(row.lookup),
    hash: String(row.hash),
    label: textOrNull(row.label),
    revoked_at: textOrNull(row.revoked_at),
    created_at: String(row.created_at),
  };
}

export function toTask(row: Row): AgentTaskRecord {
  return {
    id: String(row.id),
    deployment_id: Number(row.deployment_id),
    credential_id: Number(row.credential_id),
    context_id: String(row.context_id),
    skill: String(row.skill),
    input: String(row.input),
    message: String(row.message),
    state: row.state as AgentTaskState,
    result: textOrNull(row.result),
    error: textOrNull(row.error),
    worker: textOrNull(row.worker),
    lease_until: textOrNull(row.lease_until),
    attempts: Number(row.attempts),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}
