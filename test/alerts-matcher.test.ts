/**
 * The alert matcher on a copy of the demo store, with a few records and signals of our own (helpers/alert-fixture.ts)
 * whose words, tax numbers and values nothing else has: each matcher type, place, window, case, judge; each match
 * once however often it runs; an interrupted run ends where an uninterrupted one does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule, type RuleOptions, setRuleEnabled } from '../src/admin/alert-rules.js';
import { signalBody } from '../src/alerts/load-items.js';
import { type AlertMatchingSummary, runAlertMatching } from '../src/alerts/run-matching.js';
import type { AlertMatchRecord, SignalRecord } from '../src/store/signal-records.js';
import type { Store } from '../src/store/store.js';
import {
  announcement,
  daysBefore,
  EVORA,
  INDICATOR,
  LISBOA,
  PORTO,
  SOURCE,
  WATCHED_SUPPLIER,
  writeFixtureSignals,
  writeProcurementFixture,
} from './helpers/alert-fixture.js';
import { copyDemoStore } from './helpers/test-app.js';

const NOW = new Date();
/** Matches are dated by the run that recorded them, to the second. */
const RUN_AT = `${NOW.toISOString().slice(0, 19)}Z`;
/** The premium plan's window: the longest of the seeded plans with alerts. */
const WINDOW_START = daysBefore(NOW, 365);

async function allMatches(store: Store, accountId: number): Promise<AlertMatchRecord[]> {
  const out: AlertMatchRecord[] = [];
  for (;;) {
    const last = out.at(-1);
    const page = await store.listAlertMatches(
      { accountId, since: '1970-01-01T00:00:00Z' },
      { after: last && { at: last.matched_at as string, id: last.id }, limit: 200 },
    );
    out.push(...page);
    if (page.length < 200) return out;
  }
}

const ofRule = (matches: AlertMatchRecord[], ruleId: number) => matches.filter((m) => m.rule_id === ruleId);
const keysOf = (matches: AlertMatchRecord[]) => matches.map((m) => m.item_key).sort();

/** Ids of our fixture records, read back from the store. */
async function fixtureIds(store: Store) {
  const changes = await store.readChanges(0, 10_000_000);
  const contracts = await store.getContracts(changes.filter((c) => c.kind === 'contract').map((c) => c.id));
  const mine = new Map(contracts.filter((c) => c.source === SOURCE).map((c) => [c.source_id, c.id]));
  const announcements = await store.getAnnouncements(changes.filter((c) => c.kind === 'announcement').map((c) => c.id));
  const amendments = await store.getAmendments(changes.filter((c) => c.kind === 'amendment').map((c) => c.id));
  const signals = await store.getSignalsByKeys([
    `procurement:deadline_closing:${SOURCE}:ZEP-1/2026`,
    'indicators:indicator_jump:alerttest:porto',
    'indicators:indicator_jump:alerttest:lisboa',
  ]);
  const signal = (suffix: string) => signals.find((s) => s.key.endsWith(suffix)) as SignalRecord;
  return {
    announcement: announcements.find((a) => a.source === SOURCE)?.id as number,
    c1: mine.get('C1') as number,
    c2: mine.get('C2') as number,
    c3: mine.get('C3') as number,
    amendment: amendments.find((a) => a.source === SOURCE)?.id as number,
    closing: signal('ZEP-1/2026'),
    porto: signal(':porto'),
    lisboa: signal(':lisboa'),
  };
}

/** The rules every scenario uses, on a fresh premium account. */
async function createRules(store: Store) {
  const account = (
    await store.createAccount({ name: 'Alertas Lda', plan_code: 'premium', beta: false, now: NOW.toISOString() })
  ).id;
  const rule = async (o: Omit<RuleOptions, 'account'>) => (await createAlertRule(store, { account, ...o }, NOW)).id;
  return {
    account,
    keywordEvora: await rule({
      name: 'Zeppelins em Évora',
      type: 'keyword',
      keywords: ['ZEPPELIN'],
      municipalities: ['evora'],
    }),
    keywordPhrase: await rule({ name: 'Zeppelin de observação', type: 'keyword', keywords: ['zeppelin observacao'] }),
    cpvWorks: await rule({ name: 'Obras', type: 'cpv', cpv: ['45'], sourceTypes: ['procurement_announcement'] }),
    entity: await rule({
      name: 'Fornecedor',
      type: 'entity',
      nifs: [WATCHED_SUPPLIER.nif],
      sourceTypes: ['procurement_contract'],
    }),
    closing: await rule({ name: 'Prazos', type: 'signal_type', signalTypes: ['deadline_closing'] }),
    records: await rule({ name: 'Recordes', type: 'signal_type', signalTypes: ['indicator_record'] }),
    splitting: await rule({ name: 'Fracionamento', type: 'signal_type', signalTypes: ['possible_splitting'] }),
    threshold: await rule({
      name: 'População acima de 1000',
      type: 'indicator_threshold',
      indicator: INDICATOR,
      above: 1000,
    }),
  };
}

async function scenario(store: Store) {
  await writeProcurementFixture(store, NOW);
  await writeFixtureSignals(store, NOW);
  return createRules(store);
}

/** What a match says, without the ids that differ between two stores. */
/** What a match records; its id and updated_at say when a run wrote it. */
const content = (m: AlertMatchRecord) => ({ ...m, id: undefined, updated_at: undefined });

describe('alert matcher', () => {
  let store: Store;
  let rules: Awaited<ReturnType<typeof createRules>>;
  let ids: Awaited<ReturnType<typeof fixtureIds>>;
  let first: AlertMatchingSummary;
  let matches: AlertMatchRecord[];

  beforeAll(async () => {
    store = copyDemoStore().store;
    // Only this file's rules run: the demo account's rules would match the fixture's items too.
    for (const rule of await store.listAlertRules({ enabledOnly: true }, { limit: 1000 }))
      await store.setAlertRuleEnabled(rule.id, false);
    rules = await scenario(store);
    ids = await fixtureIds(store);
    first = await runAlertMatching(store, { now: NOW });
    matches = await allMatches(store, rules.account);
  });
  afterAll(() => store.close());

  it('keyword: every word, case- and accent-insensitive, in the rule’s municipalities, inside the window', () => {
    const found = ofRule(matches, rules.keywordEvora);
    // The signal on the announcement names it in its title; C2 is in Lisboa; C3 is 400 days old.
    expect(keysOf(found)).toEqual(
      [
        `procurement_announcement:${ids.announcement}`,
        `procurement_contract:${ids.c1}`,
        `procurement_amendment:${ids.amendment}`,
        `signal:${ids.closing.id}`,
      ].sort(),
    );
    const byKey = new Map(found.map((m) => [m.item_key, m]));
    const tender = byKey.get(`procurement_announcement:${ids.announcement}`) as AlertMatchRecord;
    expect(tender).toMatchObject({
      municipality_id: EVORA.id,
      score: 1,
      title: 'Aquisição de um Zéppelin de observação',
      link: 'https://example.test/anuncio/ZEP-1',
      matched_at: RUN_AT,
      status: 'matched',
      rule_name: 'Zeppelins em Évora',
    });
    expect(tender.snippet).toContain('Zéppelin');
    expect(tender.judge).toMatchObject({ is_direct_action: true, action_type: 'submit_proposal' });
    // The announcement's case is the one its deadline_closing signal is in.
    expect(tender.case_id).toBe(ids.closing.case_id);
    expect(tender.case_id).not.toBeNull();

    const mention = byKey.get(`procurement_contract:${ids.c1}`) as AlertMatchRecord;
    expect(mention.score).toBe(0.6);
    expect(mention.snippet).toContain('revisão anual do zeppelin municipal');
    expect(mention.judge).toMatchObject({ is_direct_action: false, action_type: null });
    expect(mention.judge?.why_pt).toMatch(/menção de passagem/);
    const change = byKey.get(`procurement_amendment:${ids.amendment}`) as AlertMatchRecord;
    expect(change.title).toBe('Modificação do contrato: Manutenção de equipamentos aeronáuticos');
    expect(change.matched_at).toBe(RUN_AT);
  });

  it('keyword: a phrase needs all its words, anywhere in the country', () => {
    expect(keysOf(ofRule(matches, rules.keywordPhrase))).toEqual(
      [`procurement_announcement:${ids.announcement}`, `signal:${ids.closing.id}`].sort(),
    );
  });

  it('cpv: exactly the announcements of the window with a CPV under the prefix', async () => {
    const changes = await store.readChanges(0, 10_000_000);
    const announcementIds = [...new Set(changes.filter((c) => c.kind === 'announcement').map((c) => c.id))];
    const expected = (await store.getAnnouncements(announcementIds))
      .filter((a) => a.published_on !== null && a.published_on >= WINDOW_START)
      .filter((a) => a.cpv.some((c) => c.code.startsWith('45')))
      .map((a) => `procurement_announcement:${a.id}`)
      .sort();
    expect(expected.length).toBeGreaterThan(10);
    const found = ofRule(matches, rules.cpvWorks);
    expect(keysOf(found)).toEqual(expected);
    for (const m of found) {
      expect(m.snippet).toMatch(/^CPV 45\d{6}/);
      expect(m.score).toBe(0.625);
      expect(m.matched_at).toBe(RUN_AT);
    }
  });

  it('entity: contracts the tax number is a party to, judged review_award when it is the supplier', () => {
    const found = ofRule(matches, rules.entity);
    // C3 is too old; the announcement and the amendment are other source types.
    expect(keysOf(found)).toEqual([`procurement_contract:${ids.c1}`, `procurement_contract:${ids.c2}`].sort());
    for (const m of found) {
      expect(m.score).toBe(1);
      expect(m.snippet).toContain(`Adjudicatário: ${WATCHED_SUPPLIER.name} (NIF ${WATCHED_SUPPLIER.nif})`);
      expect(m.judge).toMatchObject({ is_direct_action: true, action_type: 'review_award' });
    }
    expect(found.find((m) => m.item_key === `procurement_contract:${ids.c2}`)?.municipality_id).toBe(LISBOA.id);
  });

  it('signal_type: every active signal of the type, scored by its confidence, with its evidence and case', async () => {
    const found = ofRule(matches, rules.closing);
    const signalIds = [
      ...new Set((await store.readChanges(0, 10_000_000)).filter((c) => c.kind === 'signal').map((c) => c.id)),
    ];
    // An expired or withdrawn one is not matched (test/alerts-retired-signals.test.ts).
    const expected = (await store.getSignals(signalIds))
      .filter((s) => s.type === 'deadline_closing' && s.status === 'active')
      .map((s) => `signal:${s.id}`);
    expect(keysOf(found)).toEqual(expected.sort());
    const mine = found.find((m) => m.item_key === `signal:${ids.closing.id}`);
    expect(mine).toMatchObject({
      source_type: 'signal',
      score: 0.8,
      municipality_id: EVORA.id,
      title: ids.closing.title_pt,
      link: `https://example.test/evidence/${ids.closing.key}`,
      case_id: ids.closing.case_id,
      matched_at: RUN_AT,
    });
    expect(mine?.judge).toMatchObject({ is_direct_action: true, action_type: 'submit_proposal' });
  });

  it('signal_type: the snippet is the signal’s summary, which names its place: no place glued on', async () => {
    const found = ofRule(matches, rules.records);
    expect(found.length).toBeGreaterThan(5);
    const signals = new Map(
      (await store.getSignals(found.map((m) => Number(m.item_key.slice('signal:'.length))))).map((s) => [
        `signal:${s.id}`,
        s,
      ]),
    );
    for (const m of found) {
      const s = signals.get(m.item_key) as SignalRecord;
      // "em Lisboa", "no Corvo", "na Guarda": the place with the article Portuguese gives it.
      expect(s.summary_pt).toMatch(new RegExp(` (em|no|na|nos|nas) ${s.location_text} foi de`));
      // Summaries of records are short enough to be served whole.
      expect(m.snippet, m.item_key).toBe(s.summary_pt);
    }
  });

  it('indicator_threshold: exactly the signals of the indicator whose value is past the bound', async () => {
    const found = ofRule(matches, rules.threshold);
    // The fixture's two signals (1500 in Porto, 900 in Lisboa) and whatever detection made of the demo's series.
    const expected = (await store.listSignals({ family: 'indicators' }, { limit: 1_000_000 }))
      .filter(
        (s) =>
          s.status === 'active' &&
          s.subject.indicator === INDICATOR &&
          s.subject.indicator_value !== null &&
          s.subject.indicator_value > 1000,
      )
      .map((s) => `signal:${s.id}`)
      .sort();
    expect(expected).toContain(`signal:${ids.porto.id}`);
    expect(expected).not.toContain(`signal:${ids.lisboa.id}`);
    expect(keysOf(found)).toEqual(expected);
    const porto = found.find((m) => m.item_key === `signal:${ids.porto.id}`);
    // 1500 is 50 % past 1000: strength 0.5 + 0.5 × 0.5, times the signal's confidence 0.9.
    expect(porto).toMatchObject({ municipality_id: PORTO.id, score: 0.675 });
    expect(porto?.snippet).toContain(`${INDICATOR} = 1500 (acima de 1000)`);
    expect(porto?.judge).toMatchObject({ is_direct_action: false });
  });

  it('judges an integrity flag as one: for a closer look, never "nothing to review"', () => {
    const found = ofRule(matches, rules.splitting);
    // The demo store's real contracts: possible splitting flags some of them.
    expect(found.length).toBeGreaterThan(0);
    for (const m of found) {
      expect(m.judge, m.item_key).toMatchObject({ is_direct_action: false, action_type: null });
      expect(m.judge?.why_en).toMatch(/closer look, never an accusation/);
      expect(m.judge?.why_pt).toMatch(/olhar com mais atenção, não uma acusação/);
      expect(m.judge?.why_en).not.toMatch(/nothing to .*review/);
    }
  });

  it("keeps an integrity flag's hedge in its snippet, however long the summary it cuts", async () => {
    const found = ofRule(matches, rules.splitting);
    const signals = await store.getSignals(found.map((m) => Number(m.item_key.slice('signal:'.length))));
    const summaries = new Map(signals.map((x) => [`signal:${x.id}`, x.summary_pt ?? '']));
    // A summary names the contract, its buyer and its suppliers in full: some run past the snippet's 280 characters.
    expect(found.some((m) => (summaries.get(m.item_key) as string).length > 280)).toBe(true);
    for (const m of found) {
      expect(m.snippet?.length, m.item_key).toBeLessThanOrEqual(281);
      expect(m.snippet, m.item_key).toMatch(/É um indício para olhar com mais atenção, não uma acusação\.$/);
      expect(m.snippet?.slice(0, 40), m.item_key).toBe((summaries.get(m.item_key) as string).slice(0, 40));
    }
  });

  it('a second run records nothing new and changes nothing', async () => {
    expect(first.matched).toBe(matches.length);
    const again = await runAlertMatching(store, { now: NOW });
    expect(again.matched).toBe(0);
    expect(await allMatches(store, rules.account)).toEqual(matches);
  });

  it('a record changed later comes back in the journal but is not matched twice', async () => {
    await store.writeProcurement({
      announcements: [announcement(NOW, { object: 'Aquisição de um Zéppelin de observação costeira' })],
    });
    const run = await runAlertMatching(store, { now: NOW });
    expect(run.entries).toBeGreaterThan(0);
    expect(run.matched).toBe(0);
    expect(run.already_matched).toBe(2); // the keyword rules that matched it
    const after = await allMatches(store, rules.account);
    expect(after.filter((m) => m.item_key === `procurement_announcement:${ids.announcement}`)).toHaveLength(2);
  });

  it('a new rule is matched against what is already there', async () => {
    const late = await createAlertRule(
      store,
      { account: rules.account, name: 'Tardia', type: 'keyword', keywords: ['zeppelin'] },
      NOW,
    );
    const run = await runAlertMatching(store, { now: NOW });
    expect(run.matched).toBe(5); // the announcement and its signal, C1, C2 and the amendment — not C3, too old
    expect(keysOf(ofRule(await allMatches(store, rules.account), late.id))).toEqual(
      [
        `procurement_announcement:${ids.announcement}`,
        `procurement_contract:${ids.c1}`,
        `procurement_contract:${ids.c2}`,
        `procurement_amendment:${ids.amendment}`,
        `signal:${ids.closing.id}`,
      ].sort(),
    );
  });

  it('a disabled rule matches nothing, and catches up once enabled', async () => {
    const rule = await createAlertRule(
      store,
      { account: rules.account, name: 'Desligada', type: 'keyword', keywords: ['zeppelin publicitario'] },
      NOW,
    );
    await setRuleEnabled(store, rule.id, false);
    expect((await runAlertMatching(store, { now: NOW })).matched).toBe(0);
    expect(ofRule(await allMatches(store, rules.account), rule.id)).toEqual([]);
    await setRuleEnabled(store, rule.id, true);
    expect((await runAlertMatching(store, { now: NOW })).matched).toBe(1);
    expect(keysOf(ofRule(await allMatches(store, rules.account), rule.id))).toEqual([`procurement_contract:${ids.c2}`]);
  });

  it('a run that stops half-way, then a full run, records what one full run records', async () => {
    const other = copyDemoStore().store;
    try {
      const otherRules = await scenario(other);
      let writes = 0;
      const failing = new Proxy(other, {
        get(target, name) {
          if (name === 'recordAlertMatches') {
            return (batch: Parameters<Store['recordAlertMatches']>[0]) => {
              if (++writes === 3) throw new Error('interrupted');
              return target.recordAlertMatches(batch);
            };
          }
          const value = Reflect.get(target, name);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      await expect(runAlertMatching(failing, { now: NOW, batchSize: 500 })).rejects.toThrow('interrupted');
      const partial = await allMatches(other, otherRules.account);
      expect(partial.length).toBeLessThan(matches.length);
      await runAlertMatching(other, { now: NOW, batchSize: 500 });
      expect((await allMatches(other, otherRules.account)).map(content)).toEqual(matches.map(content));
    } finally {
      await other.close();
    }
  });

  it('a match on a generated record is titled [demo], as signals from demo data are', async () => {
    await store.writeProcurement({
      announcements: [
        announcement(NOW, { source: 'demo', source_id: 'ZEP-DEMO', object: 'Aluguer de um Zéppelin para a festa' }),
      ],
    });
    await runAlertMatching(store, { now: NOW });
    const demo = (await allMatches(store, rules.account)).filter((m) => m.snippet?.includes('festa'));
    expect(demo.length).toBeGreaterThan(0);
    for (const m of demo) expect(m.title).toBe('[demo] Aluguer de um Zéppelin para a festa');
  });
});

describe('a signal’s text as matched', () => {
  it('adds the place after a dash only when the summary does not name it', () => {
    expect(signalBody('Em Corvo, o indicador subiu.', 'Corvo')).toBe('Em Corvo, o indicador subiu.');
    expect(signalBody('Contrato com execução em ALMADA.', 'Almada')).toBe('Contrato com execução em ALMADA.');
    expect(signalBody('Sinal importado.', 'Évora')).toBe('Sinal importado. — Évora');
    expect(signalBody(null, 'Évora')).toBe('Évora');
    expect(signalBody('Sinal importado.', null)).toBe('Sinal importado.');
  });
});
