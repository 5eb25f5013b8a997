/**
 * The demo account's alert rules: five predefined subscriptions and one rule of each matcher type, so that
 * `alert_rules` and `alert_matches` answer with something on first start. Each is chosen to match on a first start
 * too, where the contracts are the real ones of January–February 2024, older than the plans' alert window: what
 * reaches the matcher then is the generated calls for tenders and the signals detection writes (docs/alerts.md).
 * A later demo load adds only what the account lacks: a subscription to the same template, a rule of the same name.
 * The matches come from the next `runAlertMatching` (run by detection).
 */

import {
  createAlertRule,
  listAccountRules,
  type RuleOptions,
  type SubscribeOptions,
  subscribeToTemplate,
} from '../admin/alert-rules.js';
import type { AlertRuleRecord } from '../store/signal-records.js';
import type { Store } from '../store/store.js';

type DemoRule = { subscribe: Omit<SubscribeOptions, 'account'> } | { create: Omit<RuleOptions, 'account'> };

const LISBOA = '1106';

function demoRules(lisboaNif: string): DemoRule[] {
  return [
    { subscribe: { template: 'open-tenders-construction' } },
    { subscribe: { template: 'deadlines-closing' } },
    { subscribe: { template: 'direct-awards-above-ceiling', district: 'Lisboa' } },
    { subscribe: { template: 'integrity-flags', district: 'Porto' } },
    { subscribe: { template: 'indicator-jumps' } },
    { create: { name: 'Escolas, creches e cantinas', type: 'keyword', keywords: ['escola', 'creche', 'cantina'] } },
    {
      create: {
        name: 'Informática e software',
        type: 'cpv',
        cpv: ['72', '48'],
        sourceTypes: ['procurement_announcement', 'procurement_contract'],
      },
    },
    {
      create: {
        name: 'Município de Lisboa: anúncios e contratos',
        type: 'entity',
        nifs: [lisboaNif],
        sourceTypes: ['procurement_announcement', 'procurement_contract'],
      },
    },
    { create: { name: 'Contratos públicos adjudicados', type: 'signal_type', signalTypes: ['contract_awarded'] } },
    {
      create: {
        name: 'Desemprego acima de 10 %',
        type: 'indicator_threshold',
        indicator: 'unemployment_rate',
        above: 10,
      },
    },
  ];
}

/** Creates the demo rules the account does not have yet (by name); returns the account's rules. */
export async function ensureDemoAlertRules(store: Store, accountId: number, now: Date): Promise<AlertRuleRecord[]> {
  const lisboa = (await store.listMunicipalities()).find((m) => m.code === LISBOA);
  if (!lisboa) return listAccountRules(store, accountId); // no municipalities loaded: nothing to watch
  const existing = await listAccountRules(store, accountId);
  const names = new Set(existing.map((r) => r.name));
  const templateIds = new Map((await store.listAlertTemplates()).map((t) => [t.key, t.id]));
  const subscribed = new Set(existing.map((r) => r.template_id));
  for (const rule of demoRules(lisboa.nif)) {
    if ('subscribe' in rule) {
      if (!subscribed.has(templateIds.get(rule.subscribe.template) ?? null)) {
        await subscribeToTemplate(store, { account: accountId, ...rule.subscribe }, now);
      }
    } else if (!names.has(rule.create.name)) {
      await createAlertRule(store, { account: accountId, ...rule.create }, now);
    }
  }
  return listAccountRules(store, accountId);
}
