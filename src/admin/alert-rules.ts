/**
 * Accounts' alert rules and subscriptions, as the CLI (and the demo loader) manage them. The API only reads
 * them (docs/decisions.md, Resources: no operation changes a rule). A new rule is matched against what is already in
 * the store at
 * the next `munidata detect` or `munidata alerts match`.
 */
import { ALERT_TEMPLATES } from '../alerts/templates.js';
import { AdminError } from '../lib/admin-error.js';
import type { AccountRecord } from '../store/records.js';
import type { AlertMatchRecord, AlertRuleEdit, AlertRuleRecord, AlertTemplateRecord } from '../store/signal-records.js';
import type { Store } from '../store/store.js';
import { type MatcherOptions, matcherParams, matcherType, sourceTypes } from './alert-params.js';
import { type PlaceOptions, rulePlace } from './alert-places.js';
import { COMMAND_LINE, type RuleWording } from './rule-wording.js';

const MAX_NAME = 200;
const PAGE = 200;

export interface RuleOptions extends MatcherOptions, PlaceOptions {
  account: number;
  name: string;
}

export async function createAlertRule(
  store: Store,
  o: RuleOptions,
  now: Date,
  w: RuleWording = COMMAND_LINE,
): Promise<AlertRuleRecord> {
  await account(store, o.account);
  return store.createAlertRule({
    account_id: o.account,
    ...(await ruleDefinition(store, o, w)),
    template_id: null,
    now: now.toISOString(),
  });
}

/**
 * A rule's name and definition as given (matcher, source types, place), each checked: the one reading of what an
 * operator or a console form gives, for creating and for editing a rule. Refusals name the fields in `w`'s words.
 */
export async function ruleDefinition(
  store: Pick<Store, 'listIndicators' | 'listMunicipalities'>,
  o: Omit<RuleOptions, 'account'>,
  w: RuleWording = COMMAND_LINE,
): Promise<AlertRuleEdit> {
  const name = ruleName(o.name, w);
  const type = matcherType(o.type);
  const params = await matcherParams(store, type, o, w);
  const sources = sourceTypes(type, o.sourceTypes, w);
  const { place } = await rulePlace(store, o, w);
  return { name, matcher_type: type, params, source_types: sources, ...place };
}

export interface SubscribeOptions extends PlaceOptions {
  account: number;
  template: string;
}

/**
 * Turns a predefined subscription on for an account: a rule with the template's matcher, named after it (and
 * the place, when one is given). The same subscription twice for the same place is refused.
 */
export async function subscribeToTemplate(
  store: Store,
  o: SubscribeOptions,
  now: Date,
  w: RuleWording = COMMAND_LINE,
): Promise<AlertRuleRecord> {
  await account(store, o.account);
  const templates = await store.listAlertTemplates();
  const template = templates.find((t) => t.key === o.template);
  if (!template) {
    throw new AdminError(
      `No subscription template "${o.template}". Templates: ${templates.map((t) => t.key).join(', ')}.`,
    );
  }
  const { place, label } = await rulePlace(store, o, w);
  const same = (await accountRules(store, o.account)).find(
    (r) =>
      r.template_id === template.id &&
      r.target_scope === place.target_scope &&
      sameIds(r.municipality_ids, place.municipality_ids),
  );
  if (same) throw new AlreadySubscribed(o.account, same);
  return store.createAlertRule({
    account_id: o.account,
    name: label ? `${template.name} — ${label}` : template.name,
    matcher_type: template.matcher_type,
    params: template.params,
    source_types: template.source_types,
    ...place,
    template_id: template.id,
    now: now.toISOString(),
  });
}

/** The refusal of a subscription the account has already for that place: the console shows `rule`, the one it has. */
export class AlreadySubscribed extends AdminError {
  constructor(
    account: number,
    readonly rule: AlertRuleRecord,
  ) {
    const hint = rule.enabled ? '' : ` (disabled: munidata alerts rule enable ${rule.id})`;
    super(`Account ${account} already has this subscription: rule ${rule.id}${hint}.`);
  }
}

/** An account's rules (its own and its subscriptions, enabled or not), by id. */
export async function listAccountRules(store: Store, accountId: number): Promise<AlertRuleRecord[]> {
  await account(store, accountId);
  return accountRules(store, accountId);
}

/** Enables or disables a rule (doing it twice is harmless); a disabled rule matches nothing until enabled. */
export async function setRuleEnabled(store: Store, ruleId: number, enabled: boolean): Promise<AlertRuleRecord> {
  if (!(await store.setAlertRuleEnabled(ruleId, enabled))) throw new AdminError(`No alert rule with id ${ruleId}.`);
  return (await store.getAlertRule(ruleId)) as AlertRuleRecord;
}

export async function dismissMatch(store: Store, matchId: number): Promise<AlertMatchRecord> {
  const match = await store.getAlertMatch(matchId);
  if (!match) throw new AdminError(`No alert match with id ${matchId}.`);
  if (match.status === 'dismissed') throw new AdminError(`Alert match ${matchId} is already dismissed.`);
  await store.dismissAlertMatch(matchId);
  return { ...match, status: 'dismissed' };
}

/** Undoes a dismissal: the match is `matched` again. */
export async function restoreMatch(store: Store, matchId: number): Promise<AlertMatchRecord> {
  const match = await store.getAlertMatch(matchId);
  if (!match) throw new AdminError(`No alert match with id ${matchId}.`);
  if (match.status !== 'dismissed') throw new AdminError(`Alert match ${matchId} is not dismissed.`);
  await store.restoreAlertMatch(matchId);
  return { ...match, status: 'matched' };
}

export function listTemplates(store: Store): Promise<AlertTemplateRecord[]> {
  return store.listAlertTemplates();
}

/** The predefined subscriptions, written (or updated) by key; `migrate` calls it. */
export function seedAlertTemplates(store: Pick<Store, 'saveAlertTemplates'>): Promise<void> {
  return store.saveAlertTemplates(ALERT_TEMPLATES);
}

async function account(store: Store, id: number): Promise<AccountRecord> {
  const found = await store.getAccount(id);
  if (!found) throw new AdminError(`No account with id ${id}.`);
  return found;
}

function ruleName(text: string, w: RuleWording): string {
  const name = text.replace(/\s+/g, ' ').trim();
  if (!name) throw new AdminError(`A rule needs a name (${w.field('name')}).`);
  if (name.length > MAX_NAME) throw new AdminError(`A rule name has at most ${MAX_NAME} characters.`);
  return name;
}

async function accountRules(store: Store, accountId: number): Promise<AlertRuleRecord[]> {
  const rules: AlertRuleRecord[] = [];
  for (;;) {
    const page = await store.listAlertRules({ accountId }, { after: rules.at(-1)?.id, limit: PAGE });
    rules.push(...page);
    if (page.length < PAGE) return rules;
  }
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}
