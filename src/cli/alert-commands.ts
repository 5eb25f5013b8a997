/** `alerts`: accounts' alert rules, predefined subscriptions, the matcher run alone, and dismissing a match. */
import { type Command, Option } from 'commander';
import { issueRuleFeed, revokeRuleFeed } from '../admin/alert-feeds.js';
import {
  createAlertRule,
  dismissMatch,
  listAccountRules,
  listTemplates,
  setRuleEnabled,
  subscribeToTemplate,
} from '../admin/alert-rules.js';
import { runAlertMatching } from '../alerts/run-matching.js';
import { ALERT_SOURCE_TYPES, MATCHER_TYPES } from '../lib/vocabulary.js';
import { SIGNAL_FAMILY_KEYS, SIGNAL_TYPE_KEYS } from '../signals/catalogue.js';
import type { CliContext } from './context.js';
import { finiteNumber, positiveInt } from './number-arguments.js';
import { print, table } from './output.js';

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

export function registerAlertCommands(program: Command, cli: CliContext): void {
  const alerts = program.command('alerts').description("Accounts' alert rules, subscriptions and matches");
  const rule = alerts.command('rule').description('Create, list, enable and disable alert rules');

  rule
    .command('create')
    .description('Create an alert rule for an account (national unless --municipality or --district)')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .requiredOption('--name <name>', 'a name the account will recognise')
    .requiredOption('--type <type>', `matcher: ${MATCHER_TYPES.join(', ')}`)
    .addOption(repeatable('--keyword <phrase>', 'keyword: a phrase whose every word must occur'))
    .addOption(repeatable('--cpv <prefix>', 'cpv: a CPV prefix of 1–8 digits'))
    .addOption(repeatable('--nif <nif>', 'entity: a buyer or supplier tax number'))
    .addOption(repeatable('--signal-type <type>', `signal_type: ${SIGNAL_TYPE_KEYS.join(', ')}`))
    .addOption(repeatable('--signal-family <family>', `signal_type: every type of ${SIGNAL_FAMILY_KEYS.join(', ')}`))
    .option('--min-confidence <n>', 'signal_type: only signals at least this confident (0–1)', finiteNumber)
    .option('--indicator <key>', 'indicator_threshold: the indicator')
    .option('--above <n>', 'indicator_threshold: match values above n', finiteNumber)
    .option('--below <n>', 'indicator_threshold: match values below n', finiteNumber)
    .addOption(repeatable('--source-type <type>', `only these sources: ${ALERT_SOURCE_TYPES.join(', ')}`, 'all'))
    .addOption(repeatable('--municipality <code|slug>', 'watch this municipality'))
    .option('--district <name>', "watch this district's municipalities")
    .action((o: CreateFlags) =>
      cli.withStore(async (store) => {
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
      }),
    );
  rule
    .command('list')
    .description("List an account's rules and subscriptions")
    .requiredOption('--account <id>', 'account id', positiveInt)
    .action((o: { account: number }) =>
      cli.withStore(async (store) => {
        const rules = await listAccountRules(store, o.account);
        print(cli.json(), rules, () => table(rules as never, RULE_COLUMNS));
      }),
    );
  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    rule
      .command(name)
      .description(
        enabled
          ? 'Enable a rule (it catches up at the next match)'
          : 'Disable a rule (it matches nothing until enabled)',
      )
      .argument('<rule_id>', 'rule id', positiveInt)
      .action((ruleId: number) =>
        cli.withStore(async (store) => {
          const changed = await setRuleEnabled(store, ruleId, enabled);
          print(
            cli.json(),
            changed,
            () => `Alert rule ${ruleId} "${changed.name}" is ${enabled ? 'enabled' : 'disabled'}.`,
          );
        }),
      );
  }

  alerts
    .command('templates')
    .description('List the predefined subscriptions (subscribe with --template KEY)')
    .action(() =>
      cli.withStore(async (store) => {
        const templates = await listTemplates(store);
        print(cli.json(), templates, () =>
          table(templates as never, ['key', 'name', 'matcher_type', 'source_types', 'description']),
        );
      }),
    );

  alerts
    .command('subscribe')
    .description('Turn a predefined subscription on for an account (national unless --municipality or --district)')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .requiredOption('--template <key>', 'template key (see alerts templates)')
    .addOption(repeatable('--municipality <code|slug>', 'only this municipality'))
    .option('--district <name>', "only this district's municipalities")
    .action((o: { account: number; template: string; municipality: string[]; district?: string }) =>
      cli.withStore(async (store) => {
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
      }),
    );

  alerts
    .command('dismiss')
    .description('Dismiss an alert match')
    .argument('<match_id>', 'match id', positiveInt)
    .action((matchId: number) =>
      cli.withStore(async (store) => {
        const match = await dismissMatch(store, matchId);
        print(cli.json(), match, () => `Dismissed alert match ${matchId}.`);
      }),
    );

  alerts
    .command('feed')
    .description("Print a new secret URL of the rule's Atom feed (the previous one stops working), or --revoke it")
    .argument('<rule_id>', 'rule id', positiveInt)
    .option('--revoke', 'stop the feed URL without issuing a new one', false)
    .action((ruleId: number, o: { revoke: boolean }) =>
      cli.withStore(async (store) => {
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
      }),
    );

  alerts
    .command('match')
    .description('Match the enabled rules against what changed since they last looked (detect runs it too)')
    .action(() =>
      cli.withStore(async (store) => {
        const summary = await runAlertMatching(store, { now: new Date() });
        print(
          cli.json(),
          summary,
          () =>
            `${summary.rules} enabled rules, ${summary.entries} changes read (${summary.too_old} older than every ` +
            `alert window): ` +
            `${summary.matched} new matches, ${summary.already_matched} already recorded.`,
        );
      }),
    );
}

const MATCH_HINT = 'It is matched against existing data at the next `munidata detect` or `munidata alerts match`.';

interface CreateFlags {
  account: number;
  name: string;
  type: string;
  keyword: string[];
  cpv: string[];
  nif: string[];
  signalType: string[];
  signalFamily: string[];
  minConfidence?: number;
  indicator?: string;
  above?: number;
  below?: number;
  sourceType: string[];
  municipality: string[];
  district?: string;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** An option given any number of times, collected into a list (none by default, or what `none` says it means). */
function repeatable(flags: string, description: string, none = 'none'): Option {
  return new Option(flags, `${description} (repeatable)`).argParser(collect).default([], none);
}
