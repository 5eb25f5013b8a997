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

type Row = Record<string, unknown>;

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
    label: (row.label as string | null) ?? null,
    revoked_at: (row.revoked_at as string | null) ?? null,
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
    result: (row.result as string | null) ?? null,
    error: (row.error as string | null) ?? null,
    worker: (row.worker as string | null) ?? null,
    lease_until: (row.lease_until as string | null) ?? null,
    attempts: Number(row.attempts),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}
