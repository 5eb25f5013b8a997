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
import { AGENT_COMMITMENT, AGENT_CREDENTIAL, AGENT_QUOTE, AGENT_TASK, DEPLOYMENT } from '../shared/agent-rows.js';
import type { SqlPort } from '../sql/port.js';
import { insertInto } from '../sql/statements.js';
export class SqlAgentHostStore {
  readonly #port: SqlPort;

  constructor(port: SqlPort) {
    this.#port = port;
  }

  // ── deployments ───────────────────────────────────────────────────────────

  /** Creates a deployment (revision 1); undefined when the slug is taken. */
  async createDeployment(input: {
    slug: string;
    status: DeploymentStatus;
    spec: string;
    now: string;
  }): Promise<DeploymentRecord | undefined> {
    const record = { ...input, revision: 1, created_at: input.now, updated_at: input.now };
    return DEPLOYMENT.insertNew(this.#port, 'agent_deployments', record, DEPLOYMENT.except('id'), 'slug');
  }

  /**
   * Replaces a deployment's spec and bumps its revision (even when the spec is the same); undefined when there is no
   * such slug.
   */
  async updateDeployment(slug: string, spec: string, now: string): Promise<DeploymentRecord | undefined> {
    await this.#port.query(
      'UPDATE agent_deployments SET spec = $1, revision = revision + 1, updated_at = $2 WHERE slug = $3',
      [spec, now, slug],
    );
    return this.getDeployment(slug);
  }

  /** Sets the status, bumping the revision only when it changed; undefined when there is no such slug. */
  async setDeploymentStatus(
    slug: string,
    status: DeploymentStatus,
    now: string,
  ): Promise<DeploymentRecord | undefined> {
    await this.#port.query(
      'UPDATE agent_deployments SET status = $1, revision = revision + 1, updated_at = $2 ' +
        'WHERE slug = $3 AND status <> $1',
      [status, now, slug],
    );
    return this.getDeployment(slug);
  }

  async getDeployment(slug: string): Promise<DeploymentRecord | undefined> {
    return DEPLOYMENT.first(this.#port, 'SELECT * FROM agent_deployments WHERE slug = $1', [slug]);
  }

  async getDeploymentById(id: number): Promise<DeploymentRecord | undefined> {
    return DEPLOYMENT.first(this.#port, 'SELECT * FROM agent_deployments WHERE id = $1', [id]);
  }

  /** By slug. */
  async listDeployments(): Promise<DeploymentRecord[]> {
    return DEPLOYMENT.all(this.#port, 'SELECT * FROM agent_deployments ORDER BY slug');
  }

  // ── credentials ───────────────────────────────────────────────────────────

  async createAgentCredential(input: NewAgentCredential): Promise<AgentCredentialRecord> {
    const columns = AGENT_CREDENTIAL.except('id', 'revoked_at');
    return AGENT_CREDENTIAL.insert(this.#port, 'agent_credentials', { ...input, created_at: input.now }, columns);
  }

  async findAgentCredential(lookup: string): Promise<AgentCredentialRecord | undefined> {
    return AGENT_CREDENTIAL.first(this.#port, 'SELECT * FROM agent_credentials WHERE lookup = $1', [lookup]);
  }

  /** A deployment's credentials by id. */
  async listAgentCredentials(deploymentId: number): Promise<AgentCredentialRecord[]> {
    return AGENT_CREDENTIAL.all(this.#port, 'SELECT * FROM agent_credentials WHERE deployment_id = $1 ORDER BY id', [
      deploymentId,
    ]);
  }

  /** False when there is no such credential or it was revoked already. */
  async revokeAgentCredential(id: number, now: string): Promise<boolean> {
    return (
      (await this.#port.run('UPDATE agent_credentials SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
        now,
        id,
      ])) === 1
    );
  }

  // ── tasks ─────────────────────────────────────────────────────────────────

  /** A new task, SUBMITTED. */
  async createAgentTask(input: NewAgentTask): Promise<AgentTaskRecord> {
    const task = { ...input, state: 'SUBMITTED', attempts: 0, created_at: input.now, updated_at: input.now };
    return AGENT_TASK.insert(this.#port, 'agent_tasks', task, NEW_TASK_COLUMNS);
  }

  async getAgentTask(id: string): Promise<AgentTaskRecord | undefined> {
    return AGENT_TASK.first(this.#port, 'SELECT * FROM agent_tasks WHERE id = $1', [id]);
  }

  /** A credential's tasks by status timestamp descending, then id descending. */
  async listAgentTasks(
    filter: AgentTaskFilter,
    page: { after?: AgentTaskPosition; limit: number },
  ): Promise<AgentTaskRecord[]> {
    const after = page.after;
    return AGENT_TASK.all(
      this.#port,
      `SELECT * FROM agent_tasks WHERE ${TASK_FILTER}
         AND (CAST($5 AS text) IS NULL OR updated_at < $5 OR (updated_at = $5 AND id < $6))
       ORDER BY updated_at DESC, id DESC LIMIT $7`,
      [...filterValues(filter), after?.updated_at ?? null, after?.id ?? null, page.limit],
    );
  }

  async countAgentTasks(filter: AgentTaskFilter): Promise<number> {
    const [row] = await this.#port.query(
      `SELECT count(*) AS n FROM agent_tasks WHERE ${TASK_FILTER}`,
      filterValues(filter),
    );
    return Number(row.n);
  }

  /**
   * Claims a task for `worker` until `leaseUntil`, in one atomic update: only a SUBMITTED task, or a WORKING one
   * whose lease ended before `now`, can be claimed; it becomes WORKING. Undefined when the claim failed (another
   * process holds it, or it is final).
   */
  async claimAgentTask(
    id: string,
    worker: string,
    leaseUntil: string,
    now: string,
  ): Promise<AgentTaskRecord | undefined> {
    return AGENT_TASK.first(
      this.#port,
      `UPDATE agent_tasks SET state = 'WORKING', worker = $2, lease_until = $3, attempts = attempts + 1,
         updated_at = CASE WHEN state = 'SUBMITTED' THEN $4 ELSE updated_at END
       WHERE id = $1 AND (state = 'SUBMITTED' OR (state = 'WORKING' AND (lease_until IS NULL OR lease_until < $4)))
       RETURNING *`,
      [id, worker, leaseUntil, now],
    );
  }

  /** Extends the leases of the tasks `worker` still holds. */
  async renewAgentTaskLeases(worker: string, ids: readonly string[], leaseUntil: string): Promise<void> {
    if (ids.length === 0) return;
    await this.#port.run(
      `UPDATE agent_tasks SET lease_until = $1
       WHERE worker = $2 AND state = 'WORKING' AND ${this.#port.dialect.inList('id', '$3')}`,
      [leaseUntil, worker, ids],
    );
  }

  /**
   * Ends a task `worker` holds (WORKING, claimed by it): false when it no longer does (canceled, or taken over
   * after its lease ended) — the outcome is then dropped.
   */
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

  /** Cancels a task that is not final; undefined when it is final (or unknown). */
  async cancelAgentTask(id: string, now: string): Promise<AgentTaskRecord | undefined> {
    return AGENT_TASK.first(
      this.#port,
      `UPDATE agent_tasks SET state = 'CANCELED', worker = NULL, lease_until = NULL, updated_at = $1
       WHERE id = $2 AND state IN ('SUBMITTED', 'WORKING') RETURNING *`,
      [now, id],
    );
  }

  /** Lets go of the claims of `worker` (a process shutting down), so that another process resumes them at once. */
  async releaseAgentTasks(worker: string): Promise<number> {
    return this.#port.run(
      "UPDATE agent_tasks SET worker = NULL, lease_until = NULL WHERE worker = $1 AND state = 'WORKING'",
      [worker],
    );
  }

  /** Ids of tasks a process may claim now: SUBMITTED, or WORKING with a lease ended before `now`; oldest first. */
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

  /** Stores a quote; fails when its id is taken. */
  async createAgentQuote(quote: AgentQuoteRecord): Promise<void> {
    await this.#port.run(
      insertInto('agent_quotes', AGENT_QUOTE.columns),
      AGENT_QUOTE.values(quote, AGENT_QUOTE.columns),
    );
  }

  async getAgentQuote(id: string): Promise<AgentQuoteRecord | undefined> {
    return AGENT_QUOTE.first(this.#port, 'SELECT * FROM agent_quotes WHERE id = $1', [id]);
  }

  /**
   * Records the commitment of a quote once: the first call stores `commitment`; every call returns the one stored.
   */
  async commitAgentQuote(commitment: AgentCommitmentRecord): Promise<AgentCommitmentRecord> {
    const { columns } = AGENT_COMMITMENT;
    await this.#port.run(
      `${insertInto('agent_commitments', columns)} ON CONFLICT (quote_id) DO NOTHING`,
      AGENT_COMMITMENT.values(commitment, columns),
    );
    return (await this.getAgentCommitment(commitment.quote_id)) as AgentCommitmentRecord;
  }

  async getAgentCommitment(quoteId: string): Promise<AgentCommitmentRecord | undefined> {
    return AGENT_COMMITMENT.first(this.#port, 'SELECT * FROM agent_commitments WHERE quote_id = $1', [quoteId]);
  }
}

/** What creating a task writes: it starts unclaimed, with no answer yet. */
const NEW_TASK_COLUMNS = AGENT_TASK.except('result', 'error', 'worker', 'lease_until');

const TASK_FILTER = `credential_id = $1
  AND (CAST($2 AS text) IS NULL OR context_id = $2)
  AND (CAST($3 AS text) IS NULL OR state = $3)
  AND (CAST($4 AS text) IS NULL OR updated_at >= $4)`;

function filterValues(filter: AgentTaskFilter): unknown[] {
  return [filter.credentialId, filter.contextId ?? null, filter.state ?? null, filter.updatedSince ?? null];
}

/**
 * The company-agent host (src/agents): deployments, their credentials, tasks (with claims, so that a task runs in
 * one process only), quotes and committed actions. Held by `Store.agents`; each method's guarantee is on it above.
 */
export type AgentHostStore = Pick<SqlAgentHostStore, keyof SqlAgentHostStore>;
