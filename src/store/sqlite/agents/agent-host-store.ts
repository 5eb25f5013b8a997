/**
 * The company-agent host's records in the embedded store. Plain SQL (the PostgreSQL store ports it as is):
 * instants are RFC 3339 strings with milliseconds, compared as text; JSON columns are text.
 *
 * A task runs in one process only: `claimAgentTask` is one conditional UPDATE (SUBMITTED, or WORKING with its
 * lease ended), and `finishAgentTask` writes only while the same worker still holds the claim.
 */
import type Database from 'better-sqlite3';
import type {
  AgentCommitmentRecord,
  AgentCredentialRecord,
  AgentQuoteRecord,
  AgentTaskFilter,
  AgentTaskPosition,
  AgentTaskRecord,
  DeploymentRecord,
  DeploymentStatus,
  NewAgentCredential,
  NewAgentTask,
} from '../../agent-records.js';
import { toCredential, toDeployment, toTask } from '../../shared/agent-rows.js';
import type { AgentHostStore } from '../../store.js';

type Row = Record<string, unknown>;

export class SqliteAgentHostStore implements AgentHostStore {
  readonly #db: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  #sql(text: string): Database.Statement {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.#db.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  // ── deployments ───────────────────────────────────────────────────────────

  async createDeployment(input: {
    slug: string;
    status: DeploymentStatus;
    spec: string;
    now: string;
  }): Promise<DeploymentRecord | undefined> {
    const result = this.#sql(
      `INSERT INTO agent_deployments (slug, status, spec, revision, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)
       ON CONFLICT (slug) DO NOTHING`,
    ).run(input.slug, input.status, input.spec, input.now, input.now);
    return result.changes === 1 ? this.getDeployment(input.slug) : undefined;
  }

  async updateDeployment(slug: string, spec: string, now: string): Promise<DeploymentRecord | undefined> {
    this.#sql('UPDATE agent_deployments SET spec = ?, revision = revision + 1, updated_at = ? WHERE slug = ?').run(spec, now, slug);
    return this.getDeployment(slug);
  }

  async setDeploymentStatus(slug: string, status: DeploymentStatus, now: string): Promise<DeploymentRecord | undefined> {
    this.#sql('UPDATE agent_deployments SET status = ?, revision = revision + 1, updated_at = ? WHERE slug = ? AND status <> ?').run(
      status,
      now,
      slug,
      status,
    );
    return this.getDeployment(slug);
  }

  async getDeployment(slug: string): Promise<DeploymentRecord | undefined> {
    const row = this.#sql('SELECT * FROM agent_deployments WHERE slug = ?').get(slug) as Row | undefined;
    return row && toDeployment(row);
  }

  async getDeploymentById(id: number): Promise<DeploymentRecord | undefined> {
    const row = this.#sql('SELECT * FROM agent_deployments WHERE id = ?').get(id) as Row | undefined;
    return row && toDeployment(row);
  }

  async listDeployments(): Promise<DeploymentRecord[]> {
    return (this.#sql('SELECT * FROM agent_deployments ORDER BY slug').all() as Row[]).map(toDeployment);
  }

  // ── credentials ───────────────────────────────────────────────────────────

  async createAgentCredential(input: NewAgentCredential): Promise<AgentCredentialRecord> {
    const result = this.#sql(
      'INSERT INTO agent_credentials (deployment_id, channel, licensed, lookup, hash, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(input.deployment_id, input.channel, Number(input.licensed), input.lookup, input.hash, input.label, input.now);
    return toCredential(this.#sql('SELECT * FROM agent_credentials WHERE id = ?').get(Number(result.lastInsertRowid)) as Row);
  }

  async findAgentCredential(lookup: string): Promise<AgentCredentialRecord | undefined> {
    const row = this.#sql('SELECT * FROM agent_credentials WHERE lookup = ?').get(lookup) as Row | undefined;
    return row && toCredential(row);
  }

  async listAgentCredentials(deploymentId: number): Promise<AgentCredentialRecord[]> {
    return (this.#sql('SELECT * FROM agent_credentials WHERE deployment_id = ? ORDER BY id').all(deploymentId) as Row[]).map(toCredential);
  }

  async revokeAgentCredential(id: number, now: string): Promise<boolean> {
    return this.#sql('UPDATE agent_credentials SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes === 1;
  }

  // ── tasks ─────────────────────────────────────────────────────────────────

  async createAgentTask(input: NewAgentTask): Promise<AgentTaskRecord> {
    this.#sql(
      `INSERT INTO agent_tasks (id, deployment_id, credential_id, context_id, skill, input, message, state, attempts, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'SUBMITTED', 0, ?, ?)`,
    ).run(
      input.id,
      input.deployment_id,
      input.credential_id,
      input.context_id,
      input.skill,
      input.input,
      input.message,
      input.now,
      input.now,
    );
    return (await this.getAgentTask(input.id)) as AgentTaskRecord;
  }

  async getAgentTask(id: string): Promise<AgentTaskRecord | undefined> {
    const row = this.#sql('SELECT * FROM agent_tasks WHERE id = ?').get(id) as Row | undefined;
    return row && toTask(row);
  }

  async listAgentTasks(filter: AgentTaskFilter, page: { after?: AgentTaskPosition; limit: number }): Promise<AgentTaskRecord[]> {
    const after = page.after;
    return (
      this.#sql(
        `SELECT * FROM agent_tasks WHERE ${TASK_FILTER}
           AND (@afterAt IS NULL OR updated_at < @afterAt OR (updated_at = @afterAt AND id < @afterId))
         ORDER BY updated_at DESC, id DESC LIMIT @limit`,
      ).all({ ...filterParams(filter), afterAt: after?.updated_at ?? null, afterId: after?.id ?? null, limit: page.limit }) as Row[]
    ).map(toTask);
  }

  async countAgentTasks(filter: AgentTaskFilter): Promise<number> {
    return Number((this.#sql(`SELECT count(*) AS n FROM agent_tasks WHERE ${TASK_FILTER}`).get(filterParams(filter)) as Row).n);
  }

  async claimAgentTask(id: string, worker: string, leaseUntil: string, now: string): Promise<AgentTaskRecord | undefined> {
    const claimed = this.#sql(
      `UPDATE agent_tasks SET state = 'WORKING', worker = @worker, lease_until = @leaseUntil, attempts = attempts + 1,
         updated_at = CASE WHEN state = 'SUBMITTED' THEN @now ELSE updated_at END
       WHERE id = @id AND (state = 'SUBMITTED' OR (state = 'WORKING' AND (lease_until IS NULL OR lease_until < @now)))`,
    ).run({ id, worker, leaseUntil, now });
    return claimed.changes === 1 ? this.getAgentTask(id) : undefined;
  }

  async renewAgentTaskLeases(worker: string, ids: readonly string[], leaseUntil: string): Promise<void> {
    if (ids.length === 0) return;
    this.#sql(
      `UPDATE agent_tasks SET lease_until = ? WHERE worker = ? AND state = 'WORKING' AND id IN (SELECT value FROM json_each(?))`,
    ).run(leaseUntil, worker, JSON.stringify(ids));
  }

  async finishAgentTask(
    id: string,
    worker: string,
    outcome: { state: 'COMPLETED' | 'FAILED' | 'REJECTED'; result: string | null; error: string | null; now: string },
  ): Promise<boolean> {
    return (
      this.#sql(
        `UPDATE agent_tasks SET state = @state, result = @result, error = @error, worker = NULL, lease_until = NULL, updated_at = @now
         WHERE id = @id AND state = 'WORKING' AND worker = @worker`,
      ).run({ id, worker, ...outcome }).changes === 1
    );
  }

  async cancelAgentTask(id: string, now: string): Promise<AgentTaskRecord | undefined> {
    const canceled = this.#sql(
      `UPDATE agent_tasks SET state = 'CANCELED', worker = NULL, lease_until = NULL, updated_at = ?
       WHERE id = ? AND state IN ('SUBMITTED', 'WORKING')`,
    ).run(now, id);
    return canceled.changes === 1 ? this.getAgentTask(id) : undefined;
  }

  async releaseAgentTasks(worker: string): Promise<number> {
    return this.#sql("UPDATE agent_tasks SET worker = NULL, lease_until = NULL WHERE worker = ? AND state = 'WORKING'").run(worker).changes;
  }

  async claimableAgentTasks(now: string, limit: number): Promise<string[]> {
    return (
      this.#sql(
        `SELECT id FROM agent_tasks
         WHERE state = 'SUBMITTED' OR (state = 'WORKING' AND (lease_until IS NULL OR lease_until < ?))
         ORDER BY created_at, id LIMIT ?`,
      ).all(now, limit) as Row[]
    ).map((r) => String(r.id));
  }

  // ── quotes and commitments ────────────────────────────────────────────────

  async createAgentQuote(quote: AgentQuoteRecord): Promise<void> {
    this.#sql(
      `INSERT INTO agent_quotes (id, deployment_id, credential_id, action, quote, valid_until, created_at)
       VALUES (@id, @deployment_id, @credential_id, @action, @quote, @valid_until, @created_at)`,
    ).run(quote);
  }

  async getAgentQuote(id: string): Promise<AgentQuoteRecord | undefined> {
    const row = this.#sql('SELECT * FROM agent_quotes WHERE id = ?').get(id) as Row | undefined;
    return row && (row as unknown as AgentQuoteRecord);
  }

  async commitAgentQuote(commitment: AgentCommitmentRecord): Promise<AgentCommitmentRecord> {
    this.#sql(
      `INSERT INTO agent_commitments (quote_id, reference, outcome, committed_at) VALUES (@quote_id, @reference, @outcome, @committed_at)
       ON CONFLICT (quote_id) DO NOTHING`,
    ).run(commitment);
    return (await this.getAgentCommitment(commitment.quote_id)) as AgentCommitmentRecord;
  }

  async getAgentCommitment(quoteId: string): Promise<AgentCommitmentRecord | undefined> {
    return this.#sql('SELECT * FROM agent_commitments WHERE quote_id = ?').get(quoteId) as AgentCommitmentRecord | undefined;
  }
}

const TASK_FILTER = `credential_id = @credentialId
  AND (@contextId IS NULL OR context_id = @contextId)
  AND (@state IS NULL OR state = @state)
  AND (@updatedSince IS NULL OR updated_at >= @updatedSince)`;

function filterParams(filter: AgentTaskFilter): Row {
  return {
    credentialId: filter.credentialId,
    contextId: filter.contextId ?? null,
    state: filter.state ?? null,
    updatedSince: filter.updatedSince ?? null,
  };
}
