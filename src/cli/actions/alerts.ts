/** What the `alerts` commands do (registered in alert-commands.ts). */
import { issueRuleFeed, revokeRuleFeed } from '../../admin/alert-feeds.js';
import {
  createAlertRule,
  dismissMatch,
  listAccountRules,
  listTemplates,
  setRuleEnabled,
  subscribeToTemplate,
} from '../../admin/alert-rules.js';
import { runAlertMatching } from '../../alerts/run-matching.js';
import type { RuleCreateFlags } from '../alert-commands.js';
import type { CliContext } from '../context.js';
import { print, table } from '../output.js';

const RULE_COLUMNS = [
  'id',
  'name',
  'matcher_type',
  'source_types',
  'target_scope',
  'enabled',
  'template_id',
  'matched_seq',
  'created_at',
];

const MATCH_HINT = 'It is matched against existing data at the next `munidata detect` or `munidata alerts match`.';

export function ruleCreate(cli: CliContext, o: RuleCreateFlags): Promise<void> {
  return cli.withStore(async (store) => {
    const created = await createAlertRule(
      store,
      {
        account: o.account,
        name: o.name,
        type: o.type,
        keywords: o.keyword,
        cpv: o.cpv,
        nifs: o.nif,
        signalTypes: o.signalType,
        signalFamilies: o.signalFamily,
        minConfidence: o.minConfidence,
        indicator: o.indicator,
        above: o.above,
        below: o.below,
        sourceTypes: o.sourceType,
        municipalities: o.municipality,
        district: o.district,
      },
      new Date(),
    );
    print(
      cli.json(),
      created,
      () => `Created alert rule ${created.id} "${created.name}" for account ${created.account_id}. ${MATCH_HINT}`,
    );
  });
}

export function ruleList(cli: CliContext, o: { account: number }): Promise<void> {
  return cli.withStore(async (store) => {
    const rules = await listAccountRules(store, o.account);
    print(cli.json(), rules, () => table(rules as never, RULE_COLUMNS));
  });
}

/** `rule enable` (`enabled`) or `rule disable`. */
export function ruleSetEnabled(cli: CliContext, ruleId: number, enabled: boolean): Promise<void> {
  return cli.withStore(async (store) => {
    const changed = await setRuleEnabled(store, ruleId, enabled);
    print(cli.json(), changed, () => `Alert rule ${ruleId} "${changed.name}" is ${enabled ? 'enabled' : 'disabled'}.`);
  });
}

export function templates(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const templates = await listTemplates(store);
    print(cli.json(), templates, () =>
      table(templates as never, ['key', 'name', 'matcher_type', 'source_types', 'description']),
    );
  });
}

export function subscribe(
  cli: CliContext,
  o: { account: number; template: string; municipality: string[]; district?: string },
): Promise<void> {
  return cli.withStore(async (store) => {
    const created = await subscribeToTemplate(
      store,
      { account: o.account, template: o.template, municipalities: o.municipality, district: o.district },
      new Date(),
    );
    print(
      cli.json(),
      created,
      () => `Subscribed account ${created.account_id}: rule ${created.id} "${created.name}". ${MATCH_HINT}`,
    );
  });
}

export function dismiss(cli: CliContext, matchId: number): Promise<void> {
  return cli.withStore(async (store) => {
    const match = await dismissMatch(store, matchId);
    print(cli.json(), match, () => `Dismissed alert match ${matchId}.`);
  });
}

export function feed(cli: CliContext, ruleId: number, o: { revoke: boolean }): Promise<void> {
  return cli.withStore(async (store) => {
    if (o.revoke) {
      const revoked = await revokeRuleFeed(store, ruleId);
      print(cli.json(), { rule_id: ruleId, revoked }, () =>
        revoked ? `Revoked the feed of rule ${ruleId}.` : `Rule ${ruleId} had no feed.`,
      );
      return;
    }
    const feed = await issueRuleFeed(store, ruleId, cli.config.baseUrl, new Date());
    print(
      cli.json(),
      feed,
      () => `Atom feed of rule ${ruleId} (secret: anyone with it reads the rule's matches):\n  ${feed.url}`,
    );
  });
}

export function match(cli: CliContext): Promise<void> {
  return cli.withStore(async (store) => {
    const summary = await runAlertMatching(store, { now: new Date() });
    print(
      cli.json(),
      summary,
      () =>
        `${summary.rules} enabled rules, ${summary.entries} changes read (${summary.too_old} older than every ` +
        `alert window): ` +
        `${summary.matched} new matches, ${summary.already_matched} already recorded.`,
    );
  });
}
