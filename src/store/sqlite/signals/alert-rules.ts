/** Alert templates (predefined subscriptions, upserted by key) and accounts' rules, listed by id. */
import type { KeysetPage } from '../../procurement-queries.js';
import { toAlertRule, toAlertTemplate } from '../../shared/alert-rows.js';
import type { AlertRuleFilter } from '../../signal-queries.js';
import type { AlertRuleInput, AlertRuleRecord, AlertTemplateInput, AlertTemplateRecord } from '../../signal-records.js';
import { type Params, type Row, SQLITE_COLUMNS, type Sql } from '../procurement/sql.js';

const TEMPLATE_COLUMNS = ['key', 'name', 'description', 'matcher_type', 'params', 'source_types', 'target_scope'] as const;
const UPDATED = TEMPLATE_COLUMNS.filter((c) => c !== 'key');
// An unchanged template is not rewritten (every column is NOT NULL, so <> compares them all): changes counts real ones.
const SAVE_TEMPLATE = `INSERT INTO alert_templates (${TEMPLATE_COLUMNS.join(', ')}) VALUES (${TEMPLATE_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (key) DO UPDATE SET ${UPDATED.map((c) => `${c} = excluded.${c}`).join(', ')}
  WHERE ${UPDATED.map((c) => `alert_templates.${c} <> excluded.${c}`).join(' OR ')}`;

/** Upserts by key, ids kept; true when any template was inserted or changed. */
export function saveAlertTemplates(sql: Sql, rows: readonly AlertTemplateInput[]): boolean {
  let changes = 0;
  for (const t of rows) {
    changes += sql(SAVE_TEMPLATE).run(
      t.key,
      t.name,
      t.description,
      t.matcher_type,
      JSON.stringify(t.params),
      JSON.stringify(t.source_types),
      t.target_scope,
    ).changes;
  }
  return changes > 0;
}

export function listAlertTemplates(sql: Sql): AlertTemplateRecord[] {
  return (sql('SELECT * FROM alert_templates ORDER BY id').all() as Row[]).map(toAlertTemplate);
}

export function createAlertRule(sql: Sql, input: AlertRuleInput): number {
  const result = sql(
    `INSERT INTO alert_rules (account_id, name, matcher_type, params, source_types, municipality_ids, target_scope, district, template_id, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    input.account_id,
    input.name,
    input.matcher_type,
    JSON.stringify(input.params),
    JSON.stringify(input.source_types),
    JSON.stringify(input.municipality_ids),
    input.target_scope,
    input.district,
    input.template_id,
    input.now,
  );
  return Number(result.lastInsertRowid);
}

export function getAlertRule(sql: Sql, id: number): AlertRuleRecord | undefined {
  const row = sql('SELECT * FROM alert_rules WHERE id = ?').get(id) as Row | undefined;
  return row && toAlertRule(row, SQLITE_COLUMNS);
}

/** By id ascending; one account's through its index. */
export function listAlertRules(sql: Sql, filter: AlertRuleFilter, page: KeysetPage<number>): AlertRuleRecord[] {
  const conditions = ['id > @after'];
  const params: Params = { after: page.after ?? 0, limit: page.limit };
  if (filter.accountId !== undefined) {
    conditions.push('account_id = @accountId');
    params.accountId = filter.accountId;
  }
  if (filter.enabledOnly) conditions.push('enabled = 1');
  const rows = sql(`SELECT * FROM alert_rules WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT @limit`).all(params) as Row[];
  return rows.map((row) => toAlertRule(row, SQLITE_COLUMNS));
}

/** Whether the rule exists, and whether this changed it. */
export function setAlertRuleEnabled(sql: Sql, id: number, enabled: boolean): { found: boolean; changed: boolean } {
  const row = sql('SELECT enabled FROM alert_rules WHERE id = ?').get(id) as Row | undefined;
  if (!row) return { found: false, changed: false };
  if (row.enabled === Number(enabled)) return { found: true, changed: false };
  sql('UPDATE alert_rules SET enabled = ? WHERE id = ?').run(Number(enabled), id);
  return { found: true, changed: true };
}
