/**
 * Plans, accounts, API keys, beta gates and usage counters, in every store (see AccessStore and UsageStore in
 * ../store.ts). Reads that authentication makes go to the replica; usage is read from the primary, since the
 * counters rebuild from it right after persisting what they held.
 */
import { bumpDataVersion } from '../meta.js';
import type { AccountRecord, ApiKeyRecord, KeyGrant, NewApiKey, PlanRecord } from '../records.js';
import { toAccount, toKey, toPlan } from '../shared/access-rows.js';
import type { Row, SqlPort, SqlPorts } from '../sql/port.js';
import type { AccessStore, UsageStore } from '../store.js';

export class SqlAccessStore implements Omit<AccessStore, 'revokeApiKey' | 'accessVersion'>, UsageStore {
  readonly #ports: SqlPorts;

  constructor(ports: SqlPorts) {
    this.#ports = ports;
  }

  get #columns() {
    return this.#ports.primary.dialect.columns;
  }

  async listPlans(): Promise<PlanRecord[]> {
    return (await this.#ports.replica.query('SELECT * FROM plans ORDER BY code')).map((row) => toPlan(row, this.#columns));
  }

  async getPlan(code: string): Promise<PlanRecord | undefined> {
    const [row] = await this.#ports.replica.query('SELECT * FROM plans WHERE code = $1', [code]);
    return row && toPlan(row, this.#columns);
  }

  async savePlan(plan: PlanRecord): Promise<void> {
    await this.#ports.primary.run(
      `INSERT INTO plans (code, name, api_access, domains, raw_values, judge, requests_per_minute, requests_per_month, history_years, alerts_history_days)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (code) DO UPDATE SET name = excluded.name, api_access = excluded.api_access, domains = excluded.domains,
         raw_values = excluded.raw_values, judge = excluded.judge, requests_per_minute = excluded.requests_per_minute,
         requests_per_month = excluded.requests_per_month, history_years = excluded.history_years,
         alerts_history_days = excluded.alerts_history_days`,
      [
        plan.code,
        plan.name,
        plan.api_access,
        plan.domains,
        plan.raw_values,
        plan.judge,
        plan.requests_per_minute,
        plan.requests_per_month,
        plan.history_years,
        plan.alerts_history_days,
      ],
    );
  }

  async createAccount(input: { name: string; plan_code: string; beta: boolean; now: string }): Promise<AccountRecord> {
    const [row] = await this.#ports.primary.query(
      'INSERT INTO accounts (name, plan_code, beta, created_at) VALUES ($1, $2, $3, $4) RETURNING *',
      [input.name, input.plan_code, input.beta, input.now],
    );
    return toAccount(row, this.#columns);
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return (await this.#ports.replica.query('SELECT * FROM accounts ORDER BY id')).map((row) => toAccount(row, this.#columns));
  }

  async getAccount(id: number): Promise<AccountRecord | undefined> {
    const [row] = await this.#ports.replica.query('SELECT * FROM accounts WHERE id = $1', [id]);
    return row && toAccount(row, this.#columns);
  }

  async createApiKey(input: NewApiKey): Promise<ApiKeyRecord> {
    const [row] = await this.#ports.primary.query(
      `INSERT INTO api_keys (account_id, lookup, hash, label, scopes, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       RETURNING *`,
      [input.account_id, input.lookup, input.hash, input.label, input.scopes, input.expires_at, input.now],
    );
    return toKey(row, this.#columns);
  }

  async listApiKeys(accountId: number): Promise<ApiKeyRecord[]> {
    return (await this.#ports.replica.query('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY id', [accountId])).map((row) =>
      toKey(row, this.#columns),
    );
  }

  /** Revokes the key and moves the access version in one transaction (`moveAccess`); false when nothing changed. */
  async revokeApiKey(id: number, now: string, moveAccess: (tx: SqlPort) => Promise<number>): Promise<number | undefined> {
    return this.#ports.primary.transaction(async (tx) => {
      const revoked = (await tx.run('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, id])) === 1;
      return revoked ? moveAccess(tx) : undefined;
    });
  }

  async findKeyGrant(lookup: string): Promise<KeyGrant | undefined> {
    // One statement for what authentication needs: the key, its account and the account's plan.
    const [row] = await this.#ports.replica.query(
      `SELECT k.id, k.account_id, k.lookup, k.hash, k.label, k.scopes, k.expires_at, k.revoked_at, k.created_at,
         a.name AS account_name, a.plan_code, a.beta, a.created_at AS account_created_at,
         p.name AS plan_name, p.api_access, p.domains, p.raw_values, p.judge, p.requests_per_minute, p.requests_per_month,
         p.history_years, p.alerts_history_days
       FROM api_keys k JOIN accounts a ON a.id = k.account_id JOIN plans p ON p.code = a.plan_code WHERE k.lookup = $1`,
      [lookup],
    );
    if (!row) return undefined;
    const account: Row = {
      id: row.account_id,
      name: row.account_name,
      plan_code: row.plan_code,
      beta: row.beta,
      created_at: row.account_created_at,
    };
    const plan: Row = { ...row, code: row.plan_code, name: row.plan_name };
    return { key: toKey(row, this.#columns), account: toAccount(account, this.#columns), plan: toPlan(plan, this.#columns) };
  }

  async listBetaGates(): Promise<string[]> {
    return (await this.#ports.replica.query('SELECT target FROM beta_gates ORDER BY target')).map((r) => String(r.target));
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
    const [row] = await this.#ports.primary.query('SELECT count FROM usage WHERE account_id = $1 AND period = $2', [accountId, period]);
    return Number(row?.count ?? 0);
  }

  async addUsage(entries: readonly { accountId: number; period: string; count: number }[]): Promise<void> {
    // One row per (account, period): an upsert may not touch the same row twice.
    const summed = new Map<string, [number, string, number]>();
    for (const e of entries) {
      const key = `${e.accountId}|${e.period}`;
      const held = summed.get(key);
      if (held) held[2] += e.count;
      else summed.set(key, [e.accountId, e.period, e.count]);
    }
    if (summed.size === 0) return;
    const port = this.#ports.primary;
    const batch = port.dialect.rows('$1', [
      ['account_id', 'integer'],
      ['period', 'text'],
      ['count', 'bigint'],
    ]);
    await port.run(
      `INSERT INTO usage (account_id, period, count) SELECT r.account_id, r.period, r.count FROM ${batch} AS r WHERE true
       ON CONFLICT (account_id, period) DO UPDATE SET count = usage.count + excluded.count`,
      [JSON.stringify([...summed.values()])],
    );
  }
}
