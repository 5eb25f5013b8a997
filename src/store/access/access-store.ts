/**
 * Plans, accounts, API keys, beta gates and usage counters, in every store (see AccessStore and UsageStore in
 * ../store.ts). Reads that authentication makes go to the replica; usage is read from the primary, since the
 * counters rebuild from it right after persisting what they held.
 */
import { bumpDataVersion } from '../meta.js';
import type { AccountRecord, ApiKeyRecord, KeyGrant, NewApiKey, PlanRecord } from '../records.js';
import { ACCOUNT, API_KEY, PLAN } from '../shared/access-rows.js';
import type { Row, SqlPort, SqlPorts } from '../sql/port.js';
import { insertInto, qualified, setExcluded } from '../sql/statements.js';
import type { AccessStore, UsageStore } from '../store.js';
import { firstApplication, type UsageBatch } from './usage-batches.js';

const SAVE_PLAN = `${insertInto('plans', PLAN.columns)}
  ON CONFLICT (code) DO UPDATE SET ${setExcluded(PLAN.except('code'))}`;

/**
 * One statement for what authentication needs: the key, its account and the account's plan (names clashing renamed).
 */
const GRANT_SELECT = `SELECT ${qualified('k', API_KEY.columns)},
    a.name AS account_name, a.plan_code, a.beta, a.created_at AS account_created_at,
    p.name AS plan_name, ${qualified('p', PLAN.except('code', 'name'))}
  FROM api_keys k JOIN accounts a ON a.id = k.account_id JOIN plans p ON p.code = a.plan_code WHERE k.lookup = $1`;

export class SqlAccessStore implements Omit<AccessStore, 'revokeApiKey' | 'accessVersion'>, UsageStore {
  readonly #ports: SqlPorts;

  constructor(ports: SqlPorts) {
    this.#ports = ports;
  }

  async listPlans(): Promise<PlanRecord[]> {
    return PLAN.all(this.#ports.replica, 'SELECT * FROM plans ORDER BY code');
  }

  async getPlan(code: string): Promise<PlanRecord | undefined> {
    return PLAN.first(this.#ports.replica, 'SELECT * FROM plans WHERE code = $1', [code]);
  }

  async savePlan(plan: PlanRecord): Promise<void> {
    await this.#ports.primary.run(SAVE_PLAN, PLAN.values(plan, PLAN.columns));
  }

  async createAccount(input: { name: string; plan_code: string; beta: boolean; now: string }): Promise<AccountRecord> {
    return ACCOUNT.insert(this.#ports.primary, 'accounts', { ...input, created_at: input.now }, ACCOUNT.except('id'));
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return ACCOUNT.all(this.#ports.replica, 'SELECT * FROM accounts ORDER BY id');
  }

  async getAccount(id: number): Promise<AccountRecord | undefined> {
    return ACCOUNT.first(this.#ports.replica, 'SELECT * FROM accounts WHERE id = $1', [id]);
  }

  async createApiKey(input: NewApiKey): Promise<ApiKeyRecord> {
    return API_KEY.insert(
      this.#ports.primary,
      'api_keys',
      { ...input, created_at: input.now },
      API_KEY.except('id', 'revoked_at'),
    );
  }

  async listApiKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return API_KEY.all(this.#ports.replica, 'SELECT * FROM api_keys WHERE account_id = $1 ORDER BY id', [accountId]);
  }

  /** Revokes the key and moves the access version in one transaction (`moveAccess`); false when nothing changed. */
  async revokeApiKey(
    id: number,
    now: string,
    moveAccess: (tx: SqlPort) => Promise<number>,
  ): Promise<number | undefined> {
    return this.#ports.primary.transaction(async (tx) => {
      const revoked =
        (await tx.run('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, id])) === 1;
      return revoked ? moveAccess(tx) : undefined;
    });
  }

  async findKeyGrant(lookup: string): Promise<KeyGrant | undefined> {
    const [row] = await this.#ports.replica.query(GRANT_SELECT, [lookup]);
    if (!row) return undefined;
    const account: Row = {
      id: row.account_id,
      name: row.account_name,
      plan_code: row.plan_code,
      beta: row.beta,
      created_at: row.account_created_at,
    };
    const plan: Row = { ...row, code: row.plan_code, name: row.plan_name };
    const { columns } = this.#ports.replica.dialect;
    return { key: API_KEY.read(row, columns), account: ACCOUNT.read(account, columns), plan: PLAN.read(plan, columns) };
  }

  async listBetaGates(): Promise<string[]> {
    return (await this.#ports.replica.query('SELECT target FROM beta_gates ORDER BY target')).map((r) =>
      String(r.target),
    );
  }

  async setBetaGate(target: string, on: boolean): Promise<void> {
    await this.#ports.primary.transaction(async (tx) => {
      const changed = on
        ? await tx.run('INSERT INTO beta_gates (target) VALUES ($1) ON CONFLICT DO NOTHING', [target])
        : await tx.run('DELETE FROM beta_gates WHERE target = $1', [target]);
      // Gates are held with the reference data in serving processes; the version tells them to re-read.
      if (changed > 0) await bumpDataVersion(tx);
    });
  }

  async getUsage(accountId: number, period: string): Promise<number> {
    const [row] = await this.#ports.primary.query('SELECT count FROM usage WHERE account_id = $1 AND period = $2', [
      accountId,
      period,
    ]);
    return Number(row?.count ?? 0);
  }

  /** Adds charges; a numbered batch (./usage-batches.ts) is added once, however often it is sent. */
  async addUsage(
    entries: readonly { accountId: number; period: string; count: number }[],
    batch?: UsageBatch,
  ): Promise<void> {
    // One row per (account, period): an upsert may not touch the same row twice.
    const summed = new Map<string, [number, string, number]>();
    for (const e of entries) {
      const key = `${e.accountId}|${e.period}`;
      const held = summed.get(key);
      if (held) held[2] += e.count;
      else summed.set(key, [e.accountId, e.period, e.count]);
    }
    if (summed.size === 0) return;
    await this.#ports.primary.transaction(async (tx) => {
      if (batch && !(await firstApplication(tx, batch, new Date()))) return;
      const rows = tx.dialect.rows('$1', [
        ['account_id', 'integer'],
        ['period', 'text'],
        ['count', 'bigint'],
      ]);
      await tx.run(
        `INSERT INTO usage (account_id, period, count)
         SELECT r.account_id, r.period, r.count FROM ${rows} AS r WHERE true
         ON CONFLICT (account_id, period) DO UPDATE SET count = usage.count + excluded.count`,
        [JSON.stringify([...summed.values()])],
      );
    });
  }
}
