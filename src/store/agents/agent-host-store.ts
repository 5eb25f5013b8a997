/**
 * The company-agent host's records, in every store. Instants are RFC 3339 strings with milliseconds, compared as
 * text (byte order); JSON columns are text. Everything on the primary: a task's claim and its reads must see each
 * other at once.
 *
 * A task runs in one process only: `claimAgentTask` is one conditional UPDATE (SUBMITTED, or WORKING with its
 * lease ended), and `finishAgentTask` writes only while the same worker still holds the claim.
 */
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
} from '../agent-records.js';
import { toCredential, toDeployment, toTask } from '../shared/agent-rows.js';
import type { SqlPort } from '../sql/port.js';
import type { AgentHostStore } from '../store.js';

export class SqlAgentHostStore implements AgentHostStore {
  readonly #port: SqlPort;

  constructor(port: SqlPort) {
    this.#port = port;
  }

  // ── deployments ───────────────────────────────────────────────────────────

  async createDeployment(input: {
    slug: string;
    status: DeploymentStatus;
    spec: string;
    now: string;
  }): Promise<DeploymentRecord | undefined> {
    const [row] = await this.#port.query(
      `INSERT INTO agent_deployments (slug, status, spec, revision, created_at, updated_at) VALUES ($1, $2, $3, 1, $4, $4)
       ON CONFLICT (slug) DO NOTHING RETURNING *`,
      [input.slug, input.status, input.spec, input.now],
    );
    return row && toDeployment(row);
  }

  async updateDeployment(slug: string, spec: string, now: string): Promise<DeploymentRecord | undefined> {
    await this.#port.query('UPDATE agent_deployments SET spec = $1, revision = revision + 1, updated_at = $2 WHERE slug = $3', [
      spec,
      now,
      slug,
    ]);
    return this.getDeployment(slug);
  }

  async setDeploymentStatus(slug: string, status: DeploymentStatus, now: string): Promise<DeploymentRecord | undefined> {
    await this.#port.query(
      'UPDATE agent_deployments SET status = $1, revision = revision + 1, updated_at = $2 WHERE slug = $3 AND status <> $1',
      [status, now, slug],
    );
    return this.getDeployment(slug);
  }

  async getDeployment(slug: string): Promise<DeploymentRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM agent_deployments WHERE slug = $1', [slug]);
    return row && toDeployment(row);
  }

  async getDeploymentById(id: number): Promise<DeploymentRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM agent_deployments WHERE id = $1', [id]);
    return row && toDeployment(row);
  }

  async listDeployments(): Promise<DeploymentRecord[]> {
    return (await this.#port.query('SELECT * FROM agent_deployments ORDER BY slug')).map(toDeployment);
  }

  // ── credentials ───────────────────────────────────────────────────────────

  async createAgentCredential(input: NewAgentCredential): Promise<AgentCredentialRecord> {
    const [row] = await this.#port.query(
      `INSERT INTO agent_credentials (deployment_id, channel, licensed, lookup, hash, label, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING *`,
      [input.deployment_id, input.channel, input.licensed, input.lookup, input.hash, input.label, input.now],
    );
    return toCredential(row);
  }

  async findAgentCredential(lookup: string): Promise<AgentCredentialRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM agent_credentials WHERE lookup = $1', [lookup]);
    return row && toCredential(row);
  }

  async listAgentCredentials(deploymentId: number): Promise<AgentCredentialRecord[]> {
    return (await this.#port.query('SELECT * FROM agent_credentials WHERE deployment_id = $1 ORDER BY id', [deploymentId])).map(
      toCredential,
    );
  }

  async revokeAgentCredential(id: number, now: string): Promise<boolean> {
    return (await this.#port.run('UPDATE agent_credentials SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, id])) === 1;
  }

  // ── tasks ─────────────────────────────────────────────────────────────────

  async createAgentTask(input: NewAgentTask): Promise<AgentTaskRecord> {
    const [row] = await this.#port.query(
      `INSERT INTO agent_tasks (id, deployment_id, credential_id, context_id, skill, input, message, state, attempts, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'SUBMITTED', 0, $8, $8) RETURNING *`,
      [input.id, input.deployment_id, input.credential_id, input.context_id, input.skill, input.input, input.message, input.now],
    );
    return toTask(row);
  }

  async getAgentTask(id: string): Promise<AgentTaskRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM agent_tasks WHERE id = $1', [id]);
    return row && toTask(row);
  }

  async listAgentTasks(filter: AgentTaskFilter, page: { after?: AgentTaskPosition; limit: number }): Promise<AgentTaskRecord[]> {
    const after = page.after;
    return (
      await this.#port.query(
        `SELECT * FROM agent_tasks WHERE ${TASK_FILTER}
           AND (CAST($5 AS text) IS NULL OR updated_at < $5 OR (updated_at = $5 AND id < $6))
         ORDER BY updated_at DESC, id DESC LIMIT $7`,
        [...filterValues(filter), after?.updated_at ?? null, after?.id ?? null, page.limit],
      )
    ).map(toTask);
  }

  async countAgentTasks(filter: AgentTaskFilter): Promise<number> {
    const [row] = await this.#port.query(`SELECT count(*) AS n FROM agent_tasks WHERE ${TASK_FILTER}`, filterValues(filter));
    return Number(row.n);
  }

  async claimAgentTask(id: string, worker: string, leaseUntil: string, now: string): Promise<AgentTaskRecord | undefined> {
    const [row] = await this.#port.query(
      `UPDATE agent_tasks SET state = 'WORKING', worker = $2, lease_until = $3, attempts = attempts + 1,
         updated_at = CASE WHEN state = 'SUBMITTED' THEN $4 ELSE updated_at END
       WHERE id = $1 AND (state = 'SUBMITTED' OR (state = 'WORKING' AND (lease_until IS NULL OR lease_until < $4)))
       RETURNING *`,
      [id, worker, leaseUntil, now],
    );
    return row && toTask(row);
  }

  async renewAgentTaskLeases(worker: string, ids: readonly string[], leaseUntil: string): Promise<void> {
    if (ids.length === 0) return;
    await this.#port.run(
      `UPDATE agent_tasks SET lease_until = $1 WHERE worker = $2 AND state = 'WORKING' AND ${this.#port.dialect.inList('id', '$3')}`,
      [leaseUntil, worker, ids],
    );
  }

  async finishAgentTask(
    id: string,
    worker: string,
    outcome: { state: 'COMPLETED' | 'FAILED' | 'REJECTED'; result: string | null; error: string | null; now: string },
  ): Promise<boolean> {
    const finished = await this.#port.run(
      `UPDATE agent_tasks SET state = $3, result = $4, error = $5, worker = NULL, lease_until = NULL, updated_at = $6
       WHERE id = $1 AND state = 'WORKING' AND worker = $2`,
      [id, worker, outcome.state, outcome.result, outcome.error, outcome.now],
    );
    return finished === 1;
  }

  async cancelAgentTask(id: string, now: string): Promise<AgentTaskRecord | undefined> {
    const [row] = await this.#port.query(
      `UPDATE agent_tasks SET state = 'CANCELED', worker = NULL, lease_until = NULL, updated_at = $1
       WHERE id = $2 AND state IN ('SUBMITTED', 'WORKING') RETURNING *`,
      [now, id],
    );
    return row && toTask(row);
  }

  async releaseAgentTasks(worker: string): Promise<number> {
    return this.#port.run("UPDATE agent_tasks SET worker = NULL, lease_until = NULL WHERE worker = $1 AND state = 'WORKING'", [worker]);
  }

  async claimableAgentTasks(now: string, limit: number): Promise<string[]> {
    return (
      await this.#port.query(
        `SELECT id FROM agent_tasks
         WHERE state IN ('SUBMITTED', 'WORKING') AND (state = 'SUBMITTED' OR lease_until IS NULL OR lease_until < $1)
         ORDER BY created_at, id LIMIT $2`,
        [now, limit],
      )
    ).map((r) => String(r.id));
  }

  // ── quotes and commitments ────────────────────────────────────────────────

  async createAgentQuote(quote: AgentQuoteRecord): Promise<void> {
    await this.#port.query(
      `INSERT INTO agent_quotes (id, deployment_id, credential_id, action, quote, valid_until, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [quote.id, quote.deployment_id, quote.credential_id, quote.action, quote.quote, quote.valid_until, quote.created_at],
    );
  }

  async getAgentQuote(id: string): Promise<AgentQuoteRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM agent_quotes WHERE id = $1', [id]);
    return row && (row as unknown as AgentQuoteRecord);
  }

  async commitAgentQuote(commitment: AgentCommitmentRecord): Promise<AgentCommitmentRecord> {
    await this.#port.query(
      `INSERT INTO agent_commitments (quote_id, reference, outcome, committed_at) VALUES ($1, $2, $3, $4) ON CONFLICT (quote_id) DO NOTHING`,
      [commitment.quote_id, commitment.reference, commitment.outcome, commitment.committed_at],
    );
    return (await this.getAgentCommitment(commitment.quote_id)) as AgentCommitmentRecord;
  }

  async getAgentCommitment(quoteId: string): Promise<AgentCommitmentRecord | undefined> {
    const [row] = await this.#port.query('SELECT * FROM agent_commitments WHERE quote_id = $1', [quoteId]);
    return row as unknown as AgentCommitmentRecord | undefined;
  }
}

const TASK_FILTER = `credential_id = $1
  AND (CAST($2 AS text) IS NULL OR context_id = $2)
  AND (CAST($3 AS text) IS NULL OR state = $3)
  AND (CAST($4 AS text) IS NULL OR updated_at >= $4)`;

function filterValues(filter: AgentTaskFilter): unknown[] {
  return [filter.credentialId, filter.contextId ?? null, filter.state ?? null, filter.updatedSince ?? null];
}
