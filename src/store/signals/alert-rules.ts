/** Alert templates (predefined subscriptions, upserted by key) and accounts' rules, listed by id. */
import type { KeysetPage } from '../procurement-queries.js';
import { ALERT_RULE, ALERT_TEMPLATE } from '../shared/alert-rows.js';
import type { AlertRuleFilter } from '../signal-queries.js';
import type {
  AlertRuleEdit,
  AlertRuleInput,
  AlertRuleRecord,
  AlertTemplateInput,
  AlertTemplateRecord,
} from '../signal-records.js';
import { Params } from '../sql/params.js';
import type { SqlPort } from '../sql/port.js';
import { insertInto, setExcluded } from '../sql/statements.js';

const TEMPLATE_COLUMNS = ALERT_TEMPLATE.except('id');
const UPDATED = ALERT_TEMPLATE.except('id', 'key');
// An unchanged template is not rewritten (every column is NOT NULL, so <> compares them all): the count is of real
// changes.
const SAVE_TEMPLATE = `${insertInto('alert_templates', TEMPLATE_COLUMNS)}
  ON CONFLICT (key) DO UPDATE SET ${setExcluded(UPDATED)}
  WHERE ${UPDATED.map((c) => `alert_templates.${c} <> excluded.${c}`).join(' OR ')}`;

/** Upserts by key, ids kept; true when any template was inserted or changed. */
export async function saveAlertTemplates(tx: SqlPort, rows: readonly AlertTemplateInput[]): Promise<boolean> {
  let changes = 0;
  for (const t of rows) changes += await tx.run(SAVE_TEMPLATE, ALERT_TEMPLATE.values(t, TEMPLATE_COLUMNS));
  return changes > 0;
}

export async function listAlertTemplates(port: SqlPort): Promise<AlertTemplateRecord[]> {
  return ALERT_TEMPLATE.all(port, 'SELECT * FROM alert_templates ORDER BY id');
}

/** What creating a rule writes: the store numbers it, enables it and keeps its position in the journal. */
const RULE_COLUMNS = ALERT_RULE.except('id', 'enabled', 'matched_seq');

export async function createAlertRule(tx: SqlPort, input: AlertRuleInput): Promise<AlertRuleRecord> {
  return ALERT_RULE.insert(tx, 'alert_rules', { ...input, created_at: input.now }, RULE_COLUMNS);
}

export async function getAlertRule(port: SqlPort, id: number): Promise<AlertRuleRecord | undefined> {
  return ALERT_RULE.first(port, 'SELECT * FROM alert_rules WHERE id = $1', [id]);
}

/** By id ascending; one account's through its index. */
export async function listAlertRules(
  port: SqlPort,
  filter: AlertRuleFilter,
  page: KeysetPage<number>,
): Promise<AlertRuleRecord[]> {
  const p = new Params();
  const conditions = [`id > ${p.add(page.after ?? 0)}`];
  if (filter.accountId !== undefined) conditions.push(`account_id = ${p.add(filter.accountId)}`);
  if (filter.enabledOnly) conditions.push(port.dialect.isTrue('enabled'));
  return ALERT_RULE.all(
    port,
    `SELECT * FROM alert_rules WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT ${p.add(page.limit)}`,
    p.values,
  );
}

/** Whether the rule exists, and whether this changed it. */
export async function setAlertRuleEnabled(
  tx: SqlPort,
  id: number,
  enabled: boolean,
): Promise<{ found: boolean; changed: boolean }> {
  if ((await tx.run('UPDATE alert_rules SET enabled = $1 WHERE id = $2 AND enabled <> $1', [enabled, id])) === 1) {
    return { found: true, changed: true };
  }
  return { found: (await tx.query('SELECT 1 FROM alert_rules WHERE id = $1', [id])).length === 1, changed: false };
}

const EDITED = [
  'name',
  'matcher_type',
  'params',
  'source_types',
  'municipality_ids',
  'target_scope',
  'district',
] as const;

/**
 * Rewrites a rule's name and definition; `rematch` sets `matched_seq` back to 0, so that the matcher reads the
 * recent past again for the new definition (docs/alerts.md, "Editing and deleting a rule"). False: no such rule.
 */
export async function updateAlertRule(
  tx: SqlPort,
  id: number,
  edit: AlertRuleEdit,
  rematch: boolean,
): Promise<boolean> {
  const p = new Params();
  const values = ALERT_RULE.values(edit, EDITED);
  const sets = EDITED.map((column, i) => `${column} = ${p.add(values[i])}`);
  if (rematch) sets.push('matched_seq = 0');
  return (await tx.run(`UPDATE alert_rules SET ${sets.join(', ')} WHERE id = ${p.add(id)}`, p.values)) === 1;
}

/** Deletes a rule and the matches recorded on it (they name it); false when there is no such rule. */
export async function deleteAlertRule(tx: SqlPort, id: number): Promise<boolean> {
  await tx.run('DELETE FROM alert_matches WHERE rule_id = $1', [id]);
  return (await tx.run('DELETE FROM alert_rules WHERE id = $1', [id])) === 1;
}
