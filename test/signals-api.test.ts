/**
 * Black-box tests of the signals endpoints over REST (signals, signal families and types, signal cases), on a
 * fresh store seeded with the hand-built fixture of test/helpers/signal-fixture.ts. Expectations are computed
 * from the fixture and data/municipalities.csv; the only thing read from the service is each signal's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import { INTEGRITY_TYPES } from '../src/integrity/assess-contract.js';
import { anUpdatedAt, expectJsonHeaders, expectProblem, expectValidation } from './helpers/expectations.js';
import { freshStore } from './helpers/procurement-store.js';
import { municipalitiesFromFile } from './helpers/reference-files.js';
import {
  batchInstant,
  CHANGED_IN_LAST_BATCH,
  type ExpectedSignal,
  LAST_BATCH,
  type SignalFixture,
  seedSignals,
} from './helpers/signal-fixture.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

const MUNICIPALITIES = municipalitiesFromFile();
const municipality = (code: string) => MUNICIPALITIES.find((m) => m.code === code) ?? expect.unreachable(code);
const LISBOA = municipality('1106');
const PORTO = municipality('1312');
const EVORA = municipality('0705');

const SUMMARY_FIELDS = [
  'id',
  'type',
  'family',
  'municipality_id',
  'title_pt',
  'title_en',
  'summary_pt',
  'stage',
  'status',
  'value_tier',
  'confidence',
  'deadline_date',
  'event_date',
  'amount_eur',
  'location_text',
  'actionability',
  'first_seen_at',
  'last_seen_at',
  'updated_at',
  'synthetic',
];
const DETAIL_FIELDS = [
  ...SUMMARY_FIELDS,
  'contract_id',
  'summary_en',
  'why_it_matters_pt',
  'why_it_matters_en',
  'next_step_pt',
  'evidence',
];
const CASE_SUMMARY_FIELDS = [
  'id',
  'type',
  'family',
  'municipality_id',
  'title_pt',
  'summary_pt',
  'current_stage',
  'status',
  'value_tier',
  'confidence',
  'source_count',
  'deadline_date',
  'amount_eur',
  'first_seen_at',
  'last_seen_at',
  'updated_at',
  'synthetic',
];
const CASE_DETAIL_FIELDS = [
  ...CASE_SUMMARY_FIELDS,
  'previous_stage',
  'location_text',
  'event_date',
  'events',
  'linked_signals',
];

let t: TestApp;
let fixture: SignalFixture;
/** Signal ids as served, by the fixture's key (through the unique title). */
const idByKey = new Map<string, number>();

beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  fixture = await seedSignals(store);
  t = await startTestApp({ store, dbPath });
  const served = await collectPages(t, '/v1/signals?limit=200');
  for (const s of fixture.signals) {
    const item = served.find((i) => i.title_pt === s.input.title_pt);
    if (item) idByKey.set(s.input.key, item.id);
  }
});
afterAll(() => t.close());

const idOf = (s: ExpectedSignal) => idByKey.get(s.input.key) ?? expect.unreachable(s.input.key);

/** Newest first by last_seen_at, ties by id descending. */
function byLastSeen<T>(lastSeen: (x: T) => string | null, id: (x: T) => number) {
  return (a: T, b: T) => {
    const la = lastSeen(a) ?? '';
    const lb = lastSeen(b) ?? '';
    return la < lb ? 1 : la > lb ? -1 : id(b) - id(a);
  };
}

function expectedSignals(test: (s: ExpectedSignal) => boolean): string[] {
  return fixture.signals
    .filter(test)
    .sort(byLastSeen((s) => s.last_seen_at, idOf))
    .map((s) => s.input.title_pt as string);
}

/** The whole list at `path` is the fixture's signals that pass `test` (some, so that the check can fail), in order. */
async function expectSignals(path: string, test: (s: ExpectedSignal) => boolean): Promise<void> {
  const expected = expectedSignals(test);
  expect(expected.length, path).toBeGreaterThan(0);
  expect(titles(await all(path)), path).toEqual(expected);
}

/** Every page of a list, over small pages; checks no item comes twice. */
async function all(path: string, limit = 7): Promise<any[]> {
  const items = await collectPages(t, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`);
  expect(new Set(items.map((i) => i.id)).size, 'no item twice').toBe(items.length);
  return items;
}

const titles = (items: any[]) => items.map((i) => i.title_pt);

describe('signals_list', () => {
  it('lists every signal once, newest last_seen_at first, ties by id descending, over small pages', async () => {
    expect(idByKey.size).toBe(fixture.signals.length);
    const items = await all('/v1/signals');
    expect(titles(items)).toEqual(expectedSignals(() => true));
    // Batches of several signals share an instant (items 2 and 3 are both of batch 5): the tie-break is visible.
    expect(items[2].last_seen_at).toBe(items[3].last_seen_at);
    expect(items[2].id).toBeGreaterThan(items[3].id);
  });

  it('serves SignalSummary with the fixture’s values, instants RFC 3339 UTC and dates YYYY-MM-DD', async () => {
    const res = await t.get('/v1/signals?limit=200');
    expectJsonHeaders(res);
    expect(res.json.has_more).toBe(false);
    for (const item of res.json.items) {
      expect(Object.keys(item).sort()).toEqual([...SUMMARY_FIELDS].sort());
      const s = fixture.signals.find((x) => x.input.title_pt === item.title_pt) ?? expect.unreachable(item.title_pt);
      expect(item).toEqual({
        id: idOf(s),
        type: s.input.type,
        family: s.input.family,
        municipality_id: s.input.municipality_id,
        title_pt: s.input.title_pt,
        title_en: s.input.title_en,
        summary_pt: s.input.summary_pt,
        stage: s.input.stage,
        status: s.input.status,
        value_tier: s.input.value_tier,
        confidence: s.input.confidence,
        deadline_date: s.input.deadline_date,
        event_date: s.input.event_date,
        amount_eur: s.input.amount_eur,
        location_text: s.input.location_text,
        actionability: s.input.actionability,
        first_seen_at: s.first_seen_at,
        last_seen_at: s.last_seen_at,
        updated_at: anUpdatedAt(),
        synthetic: false, // the fixture's own source and indicator, not the demo's
      });
      expect(item.last_seen_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    }
  });

  it('moves last_seen_at of a changed signal and keeps its first_seen_at', async () => {
    const items = await all('/v1/signals');
    for (const key of CHANGED_IN_LAST_BATCH) {
      const item = items.find((i) => i.id === idByKey.get(key));
      expect(item.last_seen_at).toBe(batchInstant(LAST_BATCH));
      expect(item.first_seen_at < item.last_seen_at).toBe(true);
      expect(item.confidence).toBe(0.99);
    }
    expect(
      items
        .slice(0, 2)
        .map((i) => i.id)
        .sort(),
    ).toEqual(CHANGED_IN_LAST_BATCH.map((k) => idByKey.get(k)).sort());
  });

  it('filters by type, family, value tier and minimum confidence (inclusive)', async () => {
    await expectSignals('/v1/signals?type=tender_open', (s) => s.input.type === 'tender_open');
    await expectSignals('/v1/signals?family=indicators', (s) => s.input.family === 'indicators');
    await expectSignals('/v1/signals?value_tier=large', (s) => s.input.value_tier === 'large');
    await expectSignals('/v1/signals?min_confidence=0.8', (s) => s.input.confidence >= 0.8);
    expect((await all('/v1/signals?min_confidence=0.8')).some((i) => i.confidence === 0.8)).toBe(true);
    await expectSignals('/v1/signals?min_confidence=0', () => true);
    await expectSignals('/v1/signals?min_confidence=1', (s) => s.input.confidence === 1);
    await expectSignals(
      '/v1/signals?family=procurement&type=contract_awarded&min_confidence=0.6&value_tier=medium',
      (s) => s.input.type === 'contract_awarded' && s.input.confidence >= 0.6 && s.input.value_tier === 'medium',
    );
    // A type of another family than `family` could only match nothing: refused, naming the type's own family.
    const mismatch = await t.get('/v1/signals?family=indicators&type=tender_open');
    expectValidation(mismatch, 'type');
    expect(mismatch.json.detail).toContain('`tender_open` is a type of the family `procurement`');
  });

  it('filters by municipality, by code or slug, repeated', async () => {
    await expectSignals(`/v1/signals?municipality=${LISBOA.code}`, (s) => s.input.municipality_id === LISBOA.id);
    await expectSignals(
      `/v1/signals?municipality=lisboa&municipality=${PORTO.code}`,
      (s) => s.input.municipality_id === LISBOA.id || s.input.municipality_id === PORTO.id,
    );
    await expectSignals(`/v1/signals?municipality=${EVORA.slug}`, (s) => s.input.municipality_id === EVORA.id);
  });

  it('accepts 50 municipalities and refuses 51 or an unknown one with 422 naming `municipality`', async () => {
    const fifty = MUNICIPALITIES.slice(0, 50);
    const query = (ms: typeof MUNICIPALITIES) => ms.map((m) => `municipality=${m.code}`).join('&');
    const ids = new Set(fifty.map((m) => m.id));
    await expectSignals(
      `/v1/signals?${query(fifty)}`,
      (s) => s.input.municipality_id !== null && ids.has(s.input.municipality_id),
    );
    expectValidation(await t.get(`/v1/signals?${query(MUNICIPALITIES.slice(0, 51))}`), 'municipality');
    const unknown = await t.get('/v1/signals?municipality=lisboa&municipality=atlantida');
    expectValidation(unknown, 'municipality');
    expect(unknown.json.detail).toContain('atlantida');
  });

  it('serves only signals seen at or after `since` (a watermark), whatever the offset it is written in', async () => {
    expect(batchInstant(3)).toBe('2026-03-05T08:00:00Z');
    await expectSignals(`/v1/signals?since=${batchInstant(3)}`, (s) => s.last_seen_at >= batchInstant(3));
    await expectSignals(
      `/v1/signals?since=${encodeURIComponent('2026-03-05T09:00:00+01:00')}`,
      (s) => s.last_seen_at >= batchInstant(3),
    );
    // A fraction past the batch's instant leaves the batch out.
    await expectSignals('/v1/signals?since=2026-03-05T08:00:00.500Z', (s) => s.last_seen_at > batchInstant(3));
    // The last batch only changed signals: reading from it gives exactly them.
    const changed = await all(`/v1/signals?since=${batchInstant(LAST_BATCH)}`);
    expect(changed.map((i) => i.id).sort()).toEqual(CHANGED_IN_LAST_BATCH.map((k) => idByKey.get(k)).sort());
    expect((await t.get('/v1/signals?since=2030-01-01T00:00:00Z')).json).toMatchObject({ items: [], has_more: false });
  });

  it('refuses out-of-range and malformed filters with 422 naming the parameter', async () => {
    expectValidation(await t.get('/v1/signals?min_confidence=1.5'), 'min_confidence');
    expectValidation(await t.get('/v1/signals?min_confidence=-0.1'), 'min_confidence');
    expectValidation(await t.get('/v1/signals?min_confidence=high'), 'min_confidence');
    const unknownType = await t.get('/v1/signals?type=earthquake');
    expectValidation(unknownType, 'type');
    expect(unknownType.json.errors.find((e: any) => e.field === 'type').message).toContain('tender_open');
    expectValidation(await t.get('/v1/signals?family=weather'), 'family');
    expectValidation(await t.get('/v1/signals?value_tier=huge'), 'value_tier');
    expectValidation(await t.get('/v1/signals?since=yesterday'), 'since');
    expectValidation(await t.get('/v1/signals?since=2026-03-05'), 'since');
    expectValidation(await t.get('/v1/signals?limit=0'), 'limit');
    expectValidation(await t.get('/v1/signals?limit=201'), 'limit');
    expectValidation(await t.get('/v1/signals?colour=red'), 'colour');
  });

  it('refuses a forged cursor, and a cursor of other filters, with 400 invalid-cursor', async () => {
    expectProblem(await t.get('/v1/signals?cursor=Zm9yZ2Vk'), 400, 'invalid-cursor');
    const first = await t.get('/v1/signals?family=procurement&limit=3');
    expect(first.json.has_more).toBe(true);
    expectProblem(
      await t.get(`/v1/signals?family=indicators&limit=3&cursor=${first.json.next_cursor}`),
      400,
      'invalid-cursor',
    );
  });
});

describe('signals_get', () => {
  it('returns one signal with every detail field and its evidence', async () => {
    for (const s of fixture.signals) {
      const res = await t.get(`/v1/signals/${idOf(s)}`);
      expectJsonHeaders(res);
      expect(Object.keys(res.json).sort()).toEqual([...DETAIL_FIELDS].sort());
      expect(res.json).toMatchObject({
        id: idOf(s),
        type: s.input.type,
        title_pt: s.input.title_pt,
        summary_en: s.input.summary_en,
        why_it_matters_pt: s.input.why_it_matters_pt,
        why_it_matters_en: s.input.why_it_matters_en,
        next_step_pt: s.input.next_step_pt,
        first_seen_at: s.first_seen_at,
        last_seen_at: s.last_seen_at,
      });
      expect(res.json.evidence).toEqual(s.input.evidence);
    }
    const withEvidence = fixture.signals.find((s) => s.input.evidence.length > 0) ?? expect.unreachable();
    expect((await t.get(`/v1/signals/${idOf(withEvidence)}`)).json.evidence[0]).toMatchObject({
      source_type: 'procurement_announcement',
      source_date: '2026-03-01',
    });
  });

  it('answers 404 for an unknown id and 422 for an id that is not a positive integer', async () => {
    expectProblem(await t.get('/v1/signals/999999'), 404, 'not-found');
    expectValidation(await t.get('/v1/signals/abc'), 'signal_id');
    expectValidation(await t.get('/v1/signals/1.5'), 'signal_id');
    expectValidation(await t.get('/v1/signals/0'), 'signal_id');
  });
});

describe('signal_families and signal_types', () => {
  const REQUIRED_TYPES: Record<string, string> = {
    tender_open: 'procurement',
    contract_awarded: 'procurement',
    direct_award_high_value: 'procurement',
    contract_amended: 'procurement',
    deadline_closing: 'procurement',
    indicator_jump: 'indicators',
    indicator_record: 'indicators',
  };

  it('lists the families with Portuguese and English labels, as a JSON array', async () => {
    const res = await t.get('/v1/signal-families');
    expectJsonHeaders(res);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json.map((f: any) => f.key)).toEqual(expect.arrayContaining(['procurement', 'indicators']));
    for (const f of res.json) {
      expect(Object.keys(f).sort()).toEqual(['description_en', 'description_pt', 'key', 'label_en', 'label_pt']);
      expect(f.label_pt.length).toBeGreaterThan(3);
      expect(f.label_en.length).toBeGreaterThan(3);
      expect(f.label_pt).not.toBe(f.label_en);
    }
  });

  it('lists the types, each in a listed family, and keeps one family’s with `family`', async () => {
    const families = (await t.get('/v1/signal-families')).json.map((f: any) => f.key);
    const types = (await t.get('/v1/signal-types')).json;
    for (const [key, family] of Object.entries(REQUIRED_TYPES))
      expect(types.find((x: any) => x.key === key)?.family, key).toBe(family);
    for (const type of types) {
      expect(families).toContain(type.family);
      // An integrity type also says how it is computed.
      expect(Object.keys(type).sort()).toEqual(
        [
          'description_en',
          'description_pt',
          'family',
          'key',
          'label_en',
          'label_pt',
          ...(type.family === 'integrity' ? ['methodology'] : []),
        ].sort(),
      );
    }
    const indicators = (await t.get('/v1/signal-types?family=indicators')).json;
    expect(indicators).toEqual(types.filter((x: any) => x.family === 'indicators'));
    expect(indicators.map((x: any) => x.key).sort()).toEqual(['indicator_jump', 'indicator_record']);
    expectValidation(await t.get('/v1/signal-types?family=weather'), 'family');
  });

  it('serves each integrity type with its methodology: code, version, fields, thresholds, legal basis', async () => {
    const integrity = (await t.get('/v1/signal-types?family=integrity')).json;
    expect(integrity.map((x: any) => x.methodology.code)).toEqual(
      expect.arrayContaining(['R003', 'R018', 'R025', 'R048', 'PT-ART113', 'PT-ART22-SPLIT']),
    );
    for (const type of integrity) {
      const m = type.methodology;
      expect(m.version, type.key).toBeGreaterThanOrEqual(1);
      expect(m.fields.length, type.key).toBeGreaterThan(0);
      expect(type.description_pt).toBe(m.measures_pt);
      expect(type.description_en).toBe(m.measures_en);
      for (const th of m.thresholds) expect(th.source.length, `${type.key}.${th.key}`).toBeGreaterThan(10);
    }
    const art113 = integrity.find((x: any) => x.key === 'repeated_direct_awards').methodology;
    expect(art113.legal_basis.reference).toBe('CCP art. 113.º n.º 2 (as amended by DL 111-B/2017)');
    // In Portuguese words too, as a Portuguese summary cites it.
    expect(art113.legal_basis.reference_pt).toBe('CCP art. 113.º n.º 2 (na redação do DL 111-B/2017)');
    expect(integrity.find((x: any) => x.key === 'single_bid').methodology.legal_basis).toBeNull();
  });

  it('describes every integrity type as an indicator for a closer look, in no word of an accusation', async () => {
    // What the API serves of each type, and what each flag's signal says of it (why it matters, the next step).
    const served = JSON.stringify((await t.get('/v1/signal-types?family=integrity')).json);
    const said = `${served} ${JSON.stringify(INTEGRITY_TYPES)}`.toLowerCase();
    expect(said).toContain('why_it_matters_pt');
    for (const word of ['fraud', 'fraude', 'corrup', 'front company', 'fachada', 'crime', 'culpad', 'guilty'])
      expect(said, word).not.toContain(word);
  });

  it("never states as settled law what a type's legal basis marks unconfirmed", () => {
    // What a flag's signal tells a journalist (why it matters) hedges exactly where the citation does.
    const unsure = INTEGRITY_TYPES.filter((x) => x.legal_basis?.reference.includes('unconfirmed'));
    expect(unsure.map((x) => x.key)).toContain('possible_splitting');
    for (const x of unsure) {
      expect(x.why_it_matters_en, x.key).toMatch(/unconfirmed/);
      expect(x.why_it_matters_pt, x.key).toMatch(/por confirmar/);
    }
  });

  it('names in the catalogue every type and family the signals carry', async () => {
    const types = new Set((await t.get('/v1/signal-types')).json.map((x: any) => `${x.family}/${x.key}`));
    for (const item of await all('/v1/signals', 200)) expect(types).toContain(`${item.family}/${item.type}`);
  });
});

describe('signal_cases_list', () => {
  type Case = SignalFixture['cases'] extends Map<string, infer V> ? V : never;
  const cases = () => [...fixture.cases.values()];
  function expectedCases(test: (c: Case) => boolean): number[] {
    return cases()
      .filter(test)
      .sort(
        byLastSeen(
          (c) => c.update.fields.last_seen_at,
          (c) => c.update.id,
        ),
      )
      .map((c) => c.update.id);
  }
  const ids = (items: any[]) => items.map((i) => i.id);
  const multi = (c: Case) => c.signalKeys.length > 1;

  const episodicCasesLeftOut =
    'leaves out episodic cases (a single signal) unless include_episodic=true; newest first over small pages';
  it(episodicCasesLeftOut, async () => {
    expect(cases().some((c) => !multi(c)) && cases().some(multi)).toBe(true);
    expect(ids(await all('/v1/signal-cases', 4))).toEqual(expectedCases(multi));
    expect(ids(await all('/v1/signal-cases?include_episodic=false', 4))).toEqual(expectedCases(multi));
    expect(ids(await all('/v1/signal-cases?include_episodic=true', 4))).toEqual(expectedCases(() => true));
    expectValidation(await t.get('/v1/signal-cases?include_episodic=maybe'), 'include_episodic');
  });

  it('serves SignalCaseSummary with the saved case’s values', async () => {
    const res = await t.get('/v1/signal-cases?include_episodic=true&limit=200');
    expectJsonHeaders(res);
    for (const item of res.json.items) {
      expect(Object.keys(item).sort()).toEqual([...CASE_SUMMARY_FIELDS].sort());
      const c = cases().find((x) => x.update.id === item.id) ?? expect.unreachable(String(item.id));
      const f = c.update.fields;
      expect(item).toEqual({
        id: c.update.id,
        type: c.type,
        family: c.family,
        municipality_id: f.municipality_id,
        title_pt: f.title_pt,
        summary_pt: f.summary_pt,
        current_stage: f.current_stage,
        status: f.status,
        value_tier: f.value_tier,
        confidence: f.confidence,
        source_count: c.signalKeys.length,
        deadline_date: f.deadline_date,
        amount_eur: f.amount_eur,
        first_seen_at: f.first_seen_at,
        last_seen_at: f.last_seen_at,
        updated_at: anUpdatedAt(),
        synthetic: false,
      });
    }
  });

  it('filters by family and by municipality (code or slug, at most 50)', async () => {
    expect(ids(await all('/v1/signal-cases?family=indicators&include_episodic=true'))).toEqual(
      expectedCases((c) => c.family === 'indicators'),
    );
    expect(
      ids(await all(`/v1/signal-cases?municipality=${LISBOA.code}&municipality=porto&include_episodic=true`)),
    ).toEqual(
      expectedCases(
        (c) => c.update.fields.municipality_id === LISBOA.id || c.update.fields.municipality_id === PORTO.id,
      ),
    );
    expect(ids(await all('/v1/signal-cases?family=procurement&municipality=lisboa'))).toEqual(
      expectedCases((c) => multi(c) && c.family === 'procurement' && c.update.fields.municipality_id === LISBOA.id),
    );
    const query = (n: number) =>
      MUNICIPALITIES.slice(0, n)
        .map((m) => `municipality=${m.slug}`)
        .join('&');
    expect((await t.get(`/v1/signal-cases?${query(50)}`)).status).toBe(200);
    expectValidation(await t.get(`/v1/signal-cases?${query(51)}`), 'municipality');
    expectValidation(await t.get('/v1/signal-cases?municipality=9999'), 'municipality');
    expectValidation(await t.get('/v1/signal-cases?family=weather'), 'family');
  });
});

describe('signal_cases_get', () => {
  it('returns a case with its history oldest first and its linked signals by signal id', async () => {
    for (const c of fixture.cases.values()) {
      const res = await t.get(`/v1/signal-cases/${c.update.id}`);
      expectJsonHeaders(res);
      expect(Object.keys(res.json).sort()).toEqual([...CASE_DETAIL_FIELDS].sort());
      expect(res.json).toMatchObject({
        id: c.update.id,
        previous_stage: c.update.fields.previous_stage,
        location_text: c.update.fields.location_text,
        event_date: c.update.fields.event_date,
        source_count: c.signalKeys.length,
      });
      expect(res.json.events).toEqual(c.update.events);
      const linked = c.signalKeys
        .map((key) => fixture.signals.find((s) => s.input.key === key) ?? expect.unreachable(key))
        .map((s) => ({
          signal_id: idOf(s),
          relationship: s.input.case?.relationship,
          title_pt: s.input.title_pt,
          confidence: s.input.confidence,
        }))
        .sort((a, b) => a.signal_id - b.signal_id);
      expect(res.json.linked_signals).toEqual(linked);
    }
  });

  it('answers 404 for an unknown case and 422 for a case_id that is not a positive integer', async () => {
    expectProblem(await t.get('/v1/signal-cases/999999'), 404, 'not-found');
    expectValidation(await t.get('/v1/signal-cases/first'), 'case_id');
    expectValidation(await t.get('/v1/signal-cases/-3'), 'case_id');
  });
});

describe('access to the signals domain', () => {
  const routes = [
    '/v1/signals',
    `/v1/signals/1`,
    '/v1/signal-families',
    '/v1/signal-types',
    '/v1/signal-cases',
    '/v1/signal-cases/1',
  ];

  it('refuses a key without signals:read with 403 insufficient-scope', async () => {
    const key = (
      await createKey(
        t.store,
        { accountId: t.accounts.premium, scopes: ['procurement:read', 'alerts:read'] },
        new Date(t.clock.now),
      )
    ).secret;
    for (const route of routes) expectProblem(await t.get(route, { key }), 403, 'insufficient-scope');
  });

  it('refuses a plan without the signals domain with 403 domain-not-in-plan', async () => {
    for (const route of routes)
      expectProblem(await t.get(route, { key: t.keys.indicatorsOnly }), 403, 'domain-not-in-plan');
  });

  it('serves a key that has only signals:read', async () => {
    for (const route of ['/v1/signals', '/v1/signal-families', '/v1/signal-types', '/v1/signal-cases']) {
      expect((await t.get(route, { key: t.keys.signalsOnlyScope })).status, route).toBe(200);
    }
  });
});
