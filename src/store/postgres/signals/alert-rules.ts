/** Alert templates (predefined subscriptions, upserted by key) and accounts' rules, listed by id. */
import type { KeysetPage } from '../../procurement-queries.js';
import { toAlertRule, toAlertTemplate } from '../../shared/alert-rows.js';
import type { AlertRuleFilter } from '../../signal-queries.js';
import type { AlertRuleInput, AlertRuleRecord, AlertTemplateInput, AlertTemplateRecord } from '../../signal-records.js';
import { Params, type Sql } from '../db.js';
import { POSTGRES_COLUMNS } from '../procurement/rows.js';

const TEMPLATE_COLUMNS = ['key', 'name', 'description', 'matcher_type', 'params', 'source_types', 'target_scope'] as const;
const UPDATED = TEMPLATE_COLUMNS.filter((c) => c !== 'key');
// An unchanged template is not rewritten: only real changes return a row.
const SAVE_TEMPLATE = `INSERT INTO alert_templates (${TEMPLATE_COLUMNS.join(', ')}) VALUES (${TEMPLATE_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (key) DO UPDATE SET ${UPDATED.map((c) => `${c} = excluded.${c}`).join(', ')}
  WHERE ${UPDATED.map((c) => `alert_templates.${c} <> excluded.${c}`).join(' OR ')}
  RETURNING id`;

/** Upserts by key, ids kept; true when any template was inserted or changed. */
export async function saveAlertTemplates(sql: Sql, rows: readonly AlertTemplateInput[]): Promise<boolean> {
  let changes = 0;
  for (const t of rows) {
    const values = [t.key, t.name, t.description, t.matcher_type, JSON.stringify(t.params), JSON.stringify(t.source_types), t.target_scope];
    changes += (await sql(SAVE_TEMPLATE, values)).length;
  }
  return changes > 0;
}

export async function listAlertTemplates(sql: Sql): Promise<AlertTemplateRecord[]> {
  return (await sql('SELECT * FROM alert_templates ORDER BY id')).map(toAlertTemplate);
}

export async function createAlertRule(sql: Sql, input: AlertRuleInput): Promise<AlertRuleRecord> {
  const [row] = await sql(
    `INSERT INTO alert_rules (account_id, name, matcher_type, params, source_types, municipality_ids, target_scope, district, template_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    [
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
    ],
  );
  return toAlertRule(row, POSTGRES_COLUMNS);
}

export async function getAlertRule(sql: Sql, id: number): Promise<AlertRuleRecord | undefined> {
  const [row] = await sql('SELECT * FROM alert_rules WHERE id = $1', [id]);
  return row && toAlertRule(row, POSTGRES_COLUMNS);
}

/** By id ascending; one account's through its index. */
export async function listAlertRules(sql: Sql, filter: AlertRuleFilter, page: KeysetPage<number>): Promise<AlertRuleRecord[]> {
  const p = new Params();
  const conditions = [`id > ${p.add(page.after ?? 0)}`];
  if (filter.accountId !== undefined) conditions.push(`account_id = ${p.add(filter.accountId)}`);
  if (filter.enabledOnly) conditions.push('enabled');
  return (await sql(`SELECT * FROM alert_rules WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT ${p.add(page.limit)}`, p.values)).map(
    (row) => toAlertRule(row, POSTGRES_COLUMNS),
  );
}

/** Whether the rule exists, and whether this changed it. */
export async function setAlertRuleEnabled(sql: Sql, id: number, enabled: boolean): Promise<{ found: boolean; changed: boolean }> {
  const [row] = await sql('SELECT enabled FROM alert_rules WHERE id = $1 FOR UPDATE', [id]);
  if (!row) return { found: false, changed: false };
  if (row.enabled === enabled) return { found: true, changed: false };
  await sql('UPDATE alert_rules SET enabled = $1 WHERE id = $2', [enabled, id]);
  return { found: true, changed: true };
}
