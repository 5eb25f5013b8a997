/**
 * `munidata alerts …` in process: the commands as main.ts registers them, parsed by commander, run against a
 * copy of the demo store, printing JSON. Every refusal is an AdminError (main.ts prints it and exits 2) or a
 * commander error, with a message that says what to fix.
 */
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import { registerAlertCommands } from '../src/cli/alert-commands.js';
import type { CliContext } from '../src/cli/context.js';
import type { Config } from '../src/config.js';
import { ensureDemoAlertRules } from '../src/demo/demo-alert-rules.js';
import type { Store } from '../src/store/store.js';
import {
  EVORA,
  LISBOA,
  SOURCE,
  WATCHED_SUPPLIER,
  writeFixtureSignals,
  writeProcurementFixture,
} from './helpers/alert-fixture.js';
import { withCheckDigit } from './helpers/procurement-fixture.js';
import { municipalitiesFromFile } from './helpers/reference-files.js';
import { copyDemoStore } from './helpers/test-app.js';

let store: Store;
let account: number;
let other: number;

/** Runs `munidata --json ARGS` and returns what it printed, parsed. */
async function run(...args: string[]): Promise<any> {
  const program = new Command('munidata')
    .option('--json', 'JSON', false)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const cli: CliContext = {
    config: {} as Config,
    json: () => program.opts().json === true,
    withStore: (work) => work(store),
  };
  registerAlertCommands(program, cli);
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['node', 'munidata', '--json', ...args]);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(printed.join(''));
}

/** The message of the error `munidata ARGS` stops with. */
async function refusal(...args: string[]): Promise<string> {
  try {
    await run(...args);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`munidata ${args.join(' ')} did not fail`);
}

beforeAll(async () => {
  store = copyDemoStore().store;
  const now = new Date().toISOString();
  account = (await store.createAccount({ name: 'CLI Lda', plan_code: 'premium', beta: false, now })).id;
  other = (await store.createAccount({ name: 'Outra Lda', plan_code: 'premium', beta: false, now })).id;
});
afterAll(() => store.close());

describe('alerts rule create', () => {
  it('keyword: repeatable phrases and municipalities by code or slug', async () => {
    const rule = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(account),
      '--name',
      '  Escolas  em Lisboa ',
      '--type',
      'keyword',
      '--keyword',
      'requalificação  escola',
      '--keyword',
      'cantina',
      '--municipality',
      '1106',
      '--municipality',
      'porto',
      '--source-type',
      'procurement_announcement',
      '--source-type',
      'signal',
    );
    const byCode = new Map(municipalitiesFromFile().map((m) => [m.code, m.id]));
    expect(rule).toMatchObject({
      account_id: account,
      name: 'Escolas em Lisboa',
      matcher_type: 'keyword',
      params: { keywords: ['requalificação escola', 'cantina'] },
      source_types: ['procurement_announcement', 'signal'],
      target_scope: 'municipalities',
      municipality_ids: [byCode.get('1106'), byCode.get('1312')],
      enabled: true,
      template_id: null,
      matched_seq: 0,
    });
  });

  it('cpv: prefixes, a full code with its check digit losing it; national by default', async () => {
    const rule = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(account),
      '--name',
      'Obras',
      '--type',
      'cpv',
      '--cpv',
      '45',
      '--cpv',
      '45233140-2',
    );
    expect(rule).toMatchObject({
      params: { cpv_prefixes: ['45', '45233140'] },
      target_scope: 'national',
      municipality_ids: [],
      source_types: [],
    });
  });

  it('entity: tax numbers with their check digit; a district is its municipalities', async () => {
    const rule = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(account),
      '--name',
      'Fornecedor',
      '--type',
      'entity',
      '--nif',
      WATCHED_SUPPLIER.nif,
      '--nif',
      `PT${WATCHED_SUPPLIER.nif}`,
      '--district',
      'evora',
    );
    const evoraDistrict = municipalitiesFromFile()
      .filter((m) => m.district === 'Évora')
      .map((m) => m.id);
    expect(evoraDistrict.length).toBeGreaterThan(5);
    expect(rule).toMatchObject({
      params: { nifs: [WATCHED_SUPPLIER.nif] },
      target_scope: 'district',
      district: 'Évora',
    });
    expect([...rule.municipality_ids].sort()).toEqual([...evoraDistrict].sort());
  });

  it('an autonomous region by its short name (--district Madeira) is the region', async () => {
    const rule = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(account),
      '--name',
      'Madeira',
      '--type',
      'cpv',
      '--cpv',
      '45',
      '--district',
      'Madeira',
    );
    const madeira = municipalitiesFromFile().filter((m) => m.district === 'Região Autónoma da Madeira');
    expect(rule).toMatchObject({ target_scope: 'district', district: 'Região Autónoma da Madeira' });
    expect([...rule.municipality_ids].sort()).toEqual(madeira.map((m) => m.id).sort());
  });

  it('signal_type and indicator_threshold watch signals', async () => {
    const types = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(account),
      '--name',
      'Ajustes',
      '--type',
      'signal_type',
      '--signal-type',
      'direct_award_high_value',
    );
    expect(types).toMatchObject({ params: { signal_types: ['direct_award_high_value'] }, source_types: ['signal'] });
    const threshold = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(account),
      '--name',
      'Natalidade baixa',
      '--type',
      'indicator_threshold',
      '--indicator',
      'birth_rate',
      '--below',
      '6.5',
    );
    expect(threshold).toMatchObject({ params: { indicator: 'birth_rate', below: 6.5 }, source_types: ['signal'] });
  });

  // The cases are listed before the account exists: ACCOUNT stands for it.
  const create = (...extra: string[]) => ['alerts', 'rule', 'create', '--account', 'ACCOUNT', '--name', 'R', ...extra];
  const withAccount = (args: string[]) => args.map((a) => (a === 'ACCOUNT' ? String(account) : a));
  it.each([
    [
      ['alerts', 'rule', 'create', '--account', '999999', '--name', 'R', '--type', 'cpv', '--cpv', '45'],
      'No account with id 999999.',
    ],
    [
      create('--type', 'regex'),
      'Unknown matcher type "regex". Types: keyword, cpv, entity, signal_type, indicator_threshold.',
    ],
    [create('--type', 'keyword'), 'A keyword rule needs at least one --keyword.'],
    [create('--type', 'keyword', '--keyword', 'a'), '--keyword "a" has no word of two characters or more.'],
    [create('--type', 'keyword', '--keyword', 'obras', '--cpv', '45'), '--cpv is for --type cpv, not keyword.'],
    [create('--type', 'cpv'), 'A cpv rule needs at least one CPV prefix in --cpv (e.g. 45).'],
    [create('--type', 'cpv', '--cpv', '45x'), '--cpv "45x" is not a CPV prefix: 1 to 8 digits (45, 4523, 45233140).'],
    [
      create('--type', 'cpv', '--cpv', '452331401'),
      '--cpv "452331401" is not a CPV prefix: 1 to 8 digits (45, 4523, 45233140).',
    ],
    [create('--type', 'entity'), 'An entity rule needs at least one --nif.'],
    [create('--type', 'entity', '--nif', '12345'), '--nif "12345" is not a Portuguese tax number (nine digits).'],
    [create('--type', 'entity', '--nif', '529900170'), '--nif 529900170 fails the check digit: check the number.'],
    [
      create('--type', 'signal_type', '--signal-type', 'earthquake'),
      'Unknown --signal-type "earthquake". Signal types: tender_open, deadline_closing, contract_awarded, ' +
        'direct_award_high_value, contract_amended, indicator_jump, indicator_record, short_submission_period,',
    ],
    [create('--type', 'signal_type'), 'A signal_type rule needs at least one --signal-type or --signal-family.'],
    [
      create('--type', 'signal_type', '--signal-family', 'weather'),
      'Unknown --signal-family "weather". Families: procurement, indicators, integrity.',
    ],
    [
      create('--type', 'signal_type', '--signal-family', 'integrity', '--min-confidence', '1.5'),
      '--min-confidence 1.5 is not between 0 and 1.',
    ],
    [
      create('--type', 'cpv', '--cpv', '45', '--signal-family', 'integrity'),
      '--signal-family is for --type signal_type, not cpv.',
    ],
    [
      create('--type', 'signal_type', '--signal-type', 'tender_open', '--source-type', 'procurement_contract'),
      'A signal_type rule matches signals only: --source-type can only be signal.',
    ],
    [
      create('--type', 'indicator_threshold', '--above', '3'),
      'An indicator_threshold rule needs --indicator KEY and --above N or --below N.',
    ],
    [create('--type', 'indicator_threshold', '--indicator', 'happiness', '--above', '3'), 'No indicator "happiness"'],
    [
      create('--type', 'indicator_threshold', '--indicator', 'birth_rate'),
      'An indicator_threshold rule needs exactly one of --above N or --below N.',
    ],
    [
      create('--type', 'indicator_threshold', '--indicator', 'birth_rate', '--above', '9', '--below', '6'),
      'An indicator_threshold rule needs exactly one of --above N or --below N.',
    ],
    [
      create('--type', 'indicator_threshold', '--indicator', 'birth_rate', '--above', 'lots'),
      "option '--above <n>' argument 'lots' is invalid. must be a number",
    ],
    [
      create('--type', 'cpv', '--cpv', '45', '--source-type', 'tweet'),
      'Unknown --source-type "tweet". Source types: signal, procurement_announcement, procurement_contract, ' +
        'procurement_amendment.',
    ],
    [
      create('--type', 'cpv', '--cpv', '45', '--municipality', 'atlantida'),
      'No municipality "atlantida": give its 4-digit code or its slug (e.g. 1106 or lisboa).',
    ],
    [
      create('--type', 'cpv', '--cpv', '45', '--municipality', 'lisboa', '--district', 'Porto'),
      'Give --municipality or --district, not both.',
    ],
    [
      create('--type', 'cpv', '--cpv', '45', '--district', 'Atlântida'),
      'No district "Atlântida". Districts: Aveiro, Beja,',
    ],
    [create('--type', 'cpv', '--cpv', '45', '--district', 'Bragaa'), 'No district "Bragaa". Did you mean Braga'],
    [
      ['alerts', 'rule', 'create', '--account', 'ACCOUNT', '--name', '   ', '--type', 'cpv', '--cpv', '45'],
      'A rule needs a name (--name).',
    ],
    [
      ['alerts', 'rule', 'create', '--account', 'x', '--name', 'R', '--type', 'cpv', '--cpv', '45'],
      "option '--account <id>' argument 'x' is invalid. must be a positive integer",
    ],
  ])('refuses %j', async (args, message) => {
    expect(await refusal(...withAccount(args))).toContain(message);
  });

  it('a refused rule is not created', async () => {
    const before = await run('alerts', 'rule', 'list', '--account', String(account));
    await refusal(...withAccount(create('--type', 'cpv', '--cpv', 'nope')));
    expect(await run('alerts', 'rule', 'list', '--account', String(account))).toEqual(before);
  });
});

describe('alerts rule list, enable, disable', () => {
  it("lists an account's rules only, by id", async () => {
    const mine = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(other),
      '--name',
      'Só minha',
      '--type',
      'cpv',
      '--cpv',
      '72',
    );
    const rules = await run('alerts', 'rule', 'list', '--account', String(other));
    expect(rules.map((r: { id: number }) => r.id)).toEqual([mine.id]);
    const ofAccount = await run('alerts', 'rule', 'list', '--account', String(account));
    expect(ofAccount.length).toBeGreaterThan(3);
    expect(ofAccount.every((r: { account_id: number }) => r.account_id === account)).toBe(true);
    expect(ofAccount.map((r: { id: number }) => r.id)).toEqual(
      [...ofAccount.map((r: { id: number }) => r.id)].sort((a, b) => a - b),
    );
    expect(await refusal('alerts', 'rule', 'list', '--account', '999999')).toBe('No account with id 999999.');
  });

  it('disables and enables a rule', async () => {
    const rule = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(other),
      '--name',
      'Ligar e desligar',
      '--type',
      'cpv',
      '--cpv',
      '90',
    );
    expect(await run('alerts', 'rule', 'disable', String(rule.id))).toMatchObject({ id: rule.id, enabled: false });
    expect((await store.getAlertRule(rule.id))?.enabled).toBe(false);
    expect(await run('alerts', 'rule', 'enable', String(rule.id))).toMatchObject({ id: rule.id, enabled: true });
    expect(await refusal('alerts', 'rule', 'disable', '999999')).toBe('No alert rule with id 999999.');
  });
});

describe('alerts templates and subscribe', () => {
  it('lists the predefined subscriptions migrate seeded', async () => {
    const templates = await run('alerts', 'templates');
    const construction = templates.find((t: { key: string }) => t.key === 'open-tenders-construction');
    expect(construction).toMatchObject({
      name: 'Concursos abertos de empreitadas de obras',
      matcher_type: 'cpv',
      params: { cpv_prefixes: ['45'] },
      source_types: ['procurement_announcement'],
    });
    expect(templates.map((t: { key: string }) => t.key)).toEqual(
      expect.arrayContaining([
        'open-tenders-it',
        'direct-awards-above-ceiling',
        'contract-amendments',
        'indicator-jumps',
        'deadlines-closing',
      ]),
    );
  });

  it("subscribes with the template's matcher, once per place", async () => {
    const templates = await run('alerts', 'templates');
    const template = templates.find((t: { key: string }) => t.key === 'open-tenders-it');
    const rule = await run(
      'alerts',
      'subscribe',
      '--account',
      String(other),
      '--template',
      'open-tenders-it',
      '--district',
      'Braga',
    );
    expect(rule).toMatchObject({
      account_id: other,
      template_id: template.id,
      name: 'Concursos abertos de informática e software — distrito de Braga',
      matcher_type: 'cpv',
      params: { cpv_prefixes: ['72', '48'] },
      source_types: ['procurement_announcement'],
      target_scope: 'district',
      district: 'Braga',
    });
    expect(
      await refusal(
        'alerts',
        'subscribe',
        '--account',
        String(other),
        '--template',
        'open-tenders-it',
        '--district',
        'braga',
      ),
    ).toBe(`Account ${other} already has this subscription: rule ${rule.id}.`);
    // Another place is another subscription; a district whose name takes an article reads as Portuguese says it.
    const porto = await run(
      'alerts',
      'subscribe',
      '--account',
      String(other),
      '--template',
      'open-tenders-it',
      '--district',
      'porto',
    );
    expect(porto.name).toBe('Concursos abertos de informática e software — distrito do Porto');
    const national = await run('alerts', 'subscribe', '--account', String(other), '--template', 'open-tenders-it');
    expect(national).toMatchObject({ template_id: template.id, name: template.name, target_scope: 'national' });
    expect(await refusal('alerts', 'subscribe', '--account', String(other), '--template', 'nope')).toMatch(
      /^No subscription template "nope". Templates: open-tenders-construction, /,
    );
    expect(await refusal('alerts', 'subscribe', '--account', '999999', '--template', 'open-tenders-it')).toBe(
      'No account with id 999999.',
    );
    expect(
      await refusal(
        'alerts',
        'subscribe',
        '--account',
        String(other),
        '--template',
        'open-tenders-it',
        '--municipality',
        'xpto',
      ),
    ).toContain('No municipality "xpto"');
  });
});

describe('alerts match and dismiss', () => {
  it('matches a subscription, then dismisses one of its matches once', async () => {
    const now = new Date();
    await writeProcurementFixture(store, now);
    await writeFixtureSignals(store, now);
    const account3 = (
      await store.createAccount({ name: 'Subscritor', plan_code: 'premium', beta: false, now: now.toISOString() })
    ).id;
    const rule = await run(
      'alerts',
      'subscribe',
      '--account',
      String(account3),
      '--template',
      'deadlines-closing',
      '--municipality',
      EVORA.slug,
    );
    const summary = await run('alerts', 'match');
    expect(summary.matched).toBeGreaterThan(0);
    const matches = await store.listAlertMatches(
      { accountId: account3, since: '1970-01-01T00:00:00Z' },
      { limit: 200 },
    );
    const [closing] = await store.getSignalsByKeys([`procurement:deadline_closing:${SOURCE}:ZEP-1/2026`]);
    expect(matches.map((m) => m.item_key)).toEqual([`signal:${closing.id}`]);
    expect(matches[0]).toMatchObject({ rule_id: rule.id, status: 'matched', municipality_id: EVORA.id });

    expect(await run('alerts', 'match')).toMatchObject({ matched: 0 });
    expect(await run('alerts', 'dismiss', String(matches[0].id))).toMatchObject({
      id: matches[0].id,
      status: 'dismissed',
    });
    expect((await store.getAlertMatch(matches[0].id))?.status).toBe('dismissed');
    expect(await refusal('alerts', 'dismiss', String(matches[0].id))).toBe(
      `Alert match ${matches[0].id} is already dismissed.`,
    );
    expect(await refusal('alerts', 'dismiss', '999999')).toBe('No alert match with id 999999.');
  });

  it('a valid NIF is any nine digits with the right check digit', async () => {
    const nif = withCheckDigit('12345678');
    const rule = await run(
      'alerts',
      'rule',
      'create',
      '--account',
      String(account),
      '--name',
      'Pessoa',
      '--type',
      'entity',
      '--nif',
      nif,
    );
    expect(rule.params).toEqual({ nifs: [nif] });
  });
});

describe('the demo rules', () => {
  it('five subscriptions and one rule of each matcher type, created once, that match the demo data', async () => {
    const now = new Date();
    const demo = (
      await store.createAccount({ name: 'Demo de alertas', plan_code: 'premium', beta: false, now: now.toISOString() })
    ).id;
    const rules = await ensureDemoAlertRules(store, demo, now);
    expect(rules).toHaveLength(10);
    expect(rules.filter((r) => r.template_id !== null)).toHaveLength(5);
    expect(new Set(rules.map((r) => r.matcher_type))).toEqual(
      new Set(['keyword', 'cpv', 'entity', 'signal_type', 'indicator_threshold']),
    );
    expect(await ensureDemoAlertRules(store, demo, now)).toEqual(rules);

    await runAlertMatching(store, { now });
    const matches = await store.listAlertMatches({ accountId: demo, since: '1970-01-01T00:00:00Z' }, { limit: 200 });
    expect(matches.length).toBeGreaterThan(50);
    // The Lisboa entity rule is national: its matches are filed under the buying municipality.
    const entity = rules.find((r) => r.matcher_type === 'entity');
    const ofEntity = matches.filter((m) => m.rule_id === entity?.id);
    expect(ofEntity.length).toBeGreaterThan(0);
    expect(
      ofEntity.every(
        (m) =>
          m.municipality_id === LISBOA.id &&
          ['procurement_contract', 'procurement_announcement'].includes(m.source_type),
      ),
    ).toBe(true);
  });
});
