/**
 * Editing and deleting an account's own rule (the console's rules page). Editing runs the same checks as creating
 * (`ruleDefinition`); what it does to the rule's position in the journal and to its recorded matches is
 * docs/alerts.md, "Editing and deleting a rule": a changed definition is matched again over the recent past, the
 * matches already recorded stay (none is recorded twice); a new name alone changes nothing else.
 */
import { AdminError } from '../lib/admin-error.js';
import type { AlertRuleEdit, AlertRuleRecord } from '../store/signal-records.js';
import type { Store } from '../store/store.js';
import { type RuleOptions, ruleDefinition } from './alert-rules.js';
import { COMMAND_LINE, type RuleWording } from './rule-wording.js';

export const SUBSCRIPTION_NOT_EDITED =
  'A subscription keeps its template’s matcher: turn it off and subscribe again for another place.';

export async function editAlertRule(
  store: Store,
  ruleId: number,
  o: Omit<RuleOptions, 'account'>,
  w: RuleWording = COMMAND_LINE,
): Promise<AlertRuleRecord> {
  const rule = await store.getAlertRule(ruleId);
  if (!rule) throw new AdminError(`No alert rule with id ${ruleId}.`);
  if (rule.template_id !== null) throw new AdminError(SUBSCRIPTION_NOT_EDITED);
  const edit = await ruleDefinition(store, o, w);
  await store.updateAlertRule(ruleId, edit, definitionChanged(rule, edit));
  return (await store.getAlertRule(ruleId)) as AlertRuleRecord;
}

/**
 * Deletes a rule (own or subscription) and the matches recorded on it; false when there was none to delete (deleted
 * already, by a request sent at the same moment), which asked for no more than is so.
 */
export function deleteRule(store: Store, ruleId: number): Promise<boolean> {
  return store.deleteAlertRule(ruleId);
}

/** Whether the rule would match anything differently: anything but its name. */
function definitionChanged(rule: AlertRuleRecord, edit: AlertRuleEdit): boolean {
  const definition = (r: AlertRuleEdit) =>
    JSON.stringify([r.matcher_type, r.params, [...r.source_types].sort(), r.target_scope, r.district]) +
    JSON.stringify([...r.municipality_ids].sort((a, b) => a - b));
  return definition(rule) !== definition(edit);
}
