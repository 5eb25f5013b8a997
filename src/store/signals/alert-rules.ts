/** Alert templates (predefined subscriptions, upserted by key) and accounts' rules, listed by id. */
import type { KeysetPage } from '../procurement-queries.js';
import { toAlertRule, toAlertTemplate } from '../shared/alert-rows.js';
import type { AlertRuleFilter } from '../signal-queries.js';
import type { AlertRuleInput, AlertRuleRecord, AlertTemplateInput, AlertTemplateRecord } from '../signal-records.js';
import { Params } from '../sql/params.js';
import type { SqlPort } from '../sql/port.js';

const TEMPLATE_COLUMNS = ['key', 'name', 'description', 'matcher_type', 'params', 'source_types', 'target_scope'] as const;
const UPDATED = TEMPLATE_COLUMNS.filter((c) => c !== 'key');
// An unchanged template is not rewritten (every column is NOT NULL, so <> compares them all): the count is of real changes.
const SAVE_TEMPLATE = `INSERT INTO alert_templates (${TEMPLATE_COLUMNS.join(', ')}) VALUES (${TEMPLATE_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT (key) DO UPDATE SET ${UPDATED.map((c) => `${c} = excluded.${c}`).join(', ')}
  WHERE ${UPDATED.map((c) => `alert_templates.${c} <> excluded.${c}`).join(' OR ')}`;

/** Upserts by key, ids kept; true when any template was inserted or changed. */
export async function saveAlertTemplates(tx: SqlPort, rows: readonly AlertTemplateInput[]): Promise<boolean> {
  let changes = 0;
  for (const t of rows) {
    const values = [t.key, t.name, t.description, t.matcher_type, JSON.stringify(t.params), JSON.stringify(t.source_types), t.target_scope];
    changes += await tx.run(SAVE_TEMPLATE, values);
  }
  return changes > 0;
}

export async function listAlertTemplates(port: SqlPort): Promise<AlertTemplateRecord[]> {
  return (await port.query('SELECT * FROM alert_templates ORDER BY id')).map(toAlertTemplate);
}

export async function createAlertRule(tx: SqlPort, input: AlertRuleInput): Promise<AlertRuleRecord> {
  const [row] = await tx.query(
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
  return toAlertRule(row, tx.dialect.columns);
}

export async function getAlertRule(port: SqlPort, id: number): Promise<AlertRuleRecord | undefined> {
  const [row] = await port.query('SELECT * FROM alert_rules WHERE id = $1', [id]);
  return row && toAlertRule(row, port.dialect.columns);
}

/** By id ascending; one account's through its index. */
export async function listAlertRules(port: SqlPort, filter: AlertRuleFilter, page: KeysetPage<number>): Promise<AlertRuleRecord[]> {
  const p = new Params();
  const conditions = [`id > ${p.add(page.after ?? 0)}`];
  if (filter.accountId !== undefined) conditions.push(`account_id = ${p.add(filter.accountId)}`);
  if (filter.enabledOnly) conditions.push(port.dialect.isTrue('enabled'));
  const rows = await port.query(
    `SELECT * FROM alert_rules WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT ${p.add(page.limit)}`,
    p.values,
  );
  return rows.map((row) => toAlertRule(row, port.dialect.columns));
}

/** Whether the rule exists, and whether this changed it. */
export async function setAlertRuleEnabled(tx: SqlPort, id: number, enabled: boolean): Promise<{ found: boolean; changed: boolean }> {
  if ((await tx.run('UPDATE alert_rules SET enabled = $1 WHERE id = $2 AND enabled <> $1', [enabled, id])) === 1) {
    return { found: true, changed: true };
  }
  return { found: (await tx.query('SELECT 1 FROM alert_rules WHERE id = $1', [id])).length === 1, changed: false };
}
