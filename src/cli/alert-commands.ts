/**
 * `alerts`: accounts' alert rules, predefined subscriptions, the matcher run alone, and dismissing a match. The
 * commands' work is in actions/alerts.ts, imported when one runs (lazy-actions.ts).
 */
import { type Command, Option } from 'commander';
import { ALERT_SOURCE_TYPES, MATCHER_TYPES } from '../lib/vocabulary.js';
import { SIGNAL_FAMILY_KEYS, SIGNAL_TYPE_KEYS } from '../signals/catalogue.js';
import type { CliContext } from './context.js';
import { lazyActions } from './lazy-actions.js';
import { finiteNumber, positiveInt } from './number-arguments.js';

const alertActions = lazyActions(() => import('./actions/alerts.js'));

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
    .action(alertActions((a, o: RuleCreateFlags) => a.ruleCreate(cli, o)));
  rule
    .command('list')
    .description("List an account's rules and subscriptions")
    .requiredOption('--account <id>', 'account id', positiveInt)
    .action(alertActions((a, o: { account: number }) => a.ruleList(cli, o)));
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
      .action(alertActions((a, ruleId: number) => a.ruleSetEnabled(cli, ruleId, enabled)));
  }

  alerts
    .command('templates')
    .description('List the predefined subscriptions (subscribe with --template KEY)')
    .action(alertActions((a) => a.templates(cli)));

  alerts
    .command('subscribe')
    .description('Turn a predefined subscription on for an account (national unless --municipality or --district)')
    .requiredOption('--account <id>', 'account id', positiveInt)
    .requiredOption('--template <key>', 'template key (see alerts templates)')
    .addOption(repeatable('--municipality <code|slug>', 'only this municipality'))
    .option('--district <name>', "only this district's municipalities")
    .action(
      alertActions((a, o: { account: number; template: string; municipality: string[]; district?: string }) =>
        a.subscribe(cli, o),
      ),
    );

  alerts
    .command('dismiss')
    .description('Dismiss an alert match')
    .argument('<match_id>', 'match id', positiveInt)
    .action(alertActions((a, matchId: number) => a.dismiss(cli, matchId)));

  alerts
    .command('feed')
    .description("Print a new secret URL of the rule's Atom feed (the previous one stops working), or --revoke it")
    .argument('<rule_id>', 'rule id', positiveInt)
    .option('--revoke', 'stop the feed URL without issuing a new one', false)
    .action(alertActions((a, ruleId: number, o: { revoke: boolean }) => a.feed(cli, ruleId, o)));

  alerts
    .command('match')
    .description('Match the enabled rules against what changed since they last looked (detect runs it too)')
    .action(alertActions((a) => a.match(cli)));
}

/** The options of `alerts rule create`, as commander names them. */
export interface RuleCreateFlags {
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
