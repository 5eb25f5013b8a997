/**
 * Black-box tests of the alerts endpoints over REST (alert rules and matches), on a fresh store where several
 * accounts have rules and matches (test/helpers/signal-fixture.ts `seedAlerts`): each caller sees only its own,
 * within its plan's alert-history window, with the judge's verdict only when its plan includes the judge.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import { expectJsonHeaders, expectProblem, expectValidation } from './helpers/expectations.js';
import { freshStore } from './helpers/procurement-store.js';
import { municipalitiesFromFile } from './helpers/reference-files.js';
import { type AlertFixture, type FixtureMatch, seedAlerts } from './helpers/signal-fixture.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

const DAY_MS = 86_400_000;
const RULE_FIELDS = [
  'id',
  'name',
  'matcher_type',
  'source_types',
  'municipality_ids',
  'target_scope',
  'enabled',
  'template_id',
  'created_at',
];
const MATCH_FIELDS = [
  'id',
  'rule_id',
  'rule_name',
  'source_type',
  'municipality_id',
  'score',
  'title',
  'snippet',
  'link',
  'status',
  'matched_at',
  'case_id',
  'updated_at',
  'synthetic',
];

let t: TestApp;
/** Premium (judge, 365 days), another premium account, a plan without the judge (30 days), an unbounded one. */
let premium: AlertFixture;
let other: AlertFixture;
let noJudge: AlertFixture & { key: string };
let unbounded: AlertFixture & { key: string };
let seededAt: number;

beforeAll(async () => {
  const { store, dbPath } = await freshStore();
  t = await startTestApp({ store, dbPath });
  seededAt = t.clock.now;
  premium = await seedAlerts(t.store, t.accounts.premium, seededAt, 'premium');
  other = await seedAlerts(t.store, t.accounts.beta, seededAt, 'other');
  const a = await t.keyOnPlan('alerts_no_judge', { domains: ['alerts'], judge: false, alerts_history_days: 30 });
  noJudge = { ...(await seedAlerts(t.store, a.accountId, seededAt, 'nojudge')), key: a.key };
  const b = await t.keyOnPlan('alerts_unbounded', { domains: ['alerts'], judge: true, alerts_history_days: null });
  unbounded = { ...(await seedAlerts(t.store, b.accountId, seededAt, 'unbounded')), key: b.key };
});
afterAll(() => t.close());
// Stay clear of the per-minute limit; the fixture's matches are days apart, so a minute changes no window.
beforeEach(() => t.clock.advance(61_000));

const instant = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
/**
 * The start of a window of `days` days, as the fixture's matches see it (they are days apart: minutes do not matter).
 */
const daysAgo = (days: number) => seededAt - days * DAY_MS;

/** Every page of a list, over small pages; checks no item comes twice. */
async function all(path: string, key: string, limit = 5): Promise<any[]> {
  const items = await collectPages(t, `${path}${path.includes('?') ? '&' : '?'}limit=${limit}`, { key });
  expect(new Set(items.map((i) => i.id)).size, 'no item twice').toBe(items.length);
  return items;
}

/**
 * The served matches are exactly `expected` (some, so that the check can fail), newest first: matched_at
 * descending, ties by id descending.
 */
function expectMatches(items: any[], expected: FixtureMatch[]): void {
  expect(expected.length).toBeGreaterThan(0);
  expect(items.map((i) => i.title).sort()).toEqual(expected.map((m) => m.title).sort());
  expect(items.map((i) => i.matched_at)).toEqual(
    expected.map((m) => m.matched_at).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)),
  );
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1], items[i]];
    expect(
      a.matched_at > b.matched_at || (a.matched_at === b.matched_at && a.id > b.id),
      `${a.title} before ${b.title}`,
    ).toBe(true);
  }
}

const within = (f: AlertFixture, days: number | null) =>
  f.matches.filter((m) => days === null || Date.parse(m.matched_at) >= daysAgo(days));

describe('alert_rules', () => {
  it("lists the caller's own rules and subscriptions, by id, over pages of one", async () => {
    const rules = await all('/v1/alert-rules', t.keys.premium, 1);
    expect(rules.map((r) => r.id)).toEqual([...premium.ruleIds].sort((a, b) => a - b));
    const others = await all('/v1/alert-rules', t.keys.beta, 1);
    expect(others.map((r) => r.id)).toEqual([...other.ruleIds].sort((a, b) => a - b));
    expect(rules.some((r) => other.ruleIds.includes(r.id))).toBe(false);
  });

  it('serves AlertRuleSummary: the subscription with its template, the disabled rule not enabled', async () => {
    const res = await t.get('/v1/alert-rules');
    expectJsonHeaders(res);
    expect(String(res.headers['cache-control'])).toMatch(/no-store/);
    for (const rule of res.json.items) expect(Object.keys(rule).sort()).toEqual([...RULE_FIELDS].sort());
    const byId = new Map(res.json.items.map((r: any) => [r.id, r]));
    expect(byId.get(premium.ruleIds[0])).toMatchObject({
      name: 'premium obras em Lisboa e Porto',
      matcher_type: 'keyword',
      source_types: ['procurement_announcement', 'procurement_contract'],
      municipality_ids: [153, 190],
      target_scope: 'municipalities',
      enabled: true,
      template_id: null,
      created_at: instant(seededAt),
    });
    expect(byId.get(premium.templateRuleId)).toMatchObject({
      matcher_type: 'signal_type',
      target_scope: 'national',
      municipality_ids: [],
    });
    expect((byId.get(premium.templateRuleId) as any).template_id).toEqual(expect.any(Number));
    expect(byId.get(premium.disabledRuleId)).toMatchObject({ enabled: false, source_types: [] });
  });

  it('answers an empty page to an account without rules', async () => {
    const { key } = await t.keyOnPlan('alerts_empty', { domains: ['alerts'] });
    expect((await t.get('/v1/alert-rules', { key })).json).toMatchObject({ items: [], has_more: false });
    expect((await t.get('/v1/alert-matches', { key })).json).toMatchObject({ items: [], has_more: false });
  });
});

describe('alert_matches', () => {
  it("lists the caller's matches within the plan's window (365 days), newest first, over small pages", async () => {
    const items = await all('/v1/alert-matches', t.keys.premium);
    expectMatches(items, within(premium, 365));
    // 364 days ago is in, 366 is out; two matches of one rule share an instant.
    expect(items.some((i) => i.title === 'premium match 0-11')).toBe(true);
    expect(items.some((i) => i.title === 'premium match 0-12')).toBe(false);
    expect(
      items.filter((i) => i.matched_at === items.find((x) => x.title === 'premium match 0-2').matched_at),
    ).toHaveLength(2);
  });

  it("never shows another account's matches", async () => {
    const mine = await all('/v1/alert-matches', t.keys.premium, 50);
    expect(mine.every((i) => i.title.startsWith('premium '))).toBe(true);
    const theirs = await all('/v1/alert-matches', t.keys.beta, 50);
    expectMatches(theirs, within(other, 365));
    expect(theirs.every((i) => i.title.startsWith('other '))).toBe(true);
  });

  it('serves AlertMatchSummary, with the judge on a premium plan exactly where a verdict exists', async () => {
    const res = await t.get('/v1/alert-matches?limit=200');
    expectJsonHeaders(res);
    expect(String(res.headers['cache-control'])).toMatch(/no-store/);
    for (const item of res.json.items) {
      const m = premium.matches.find((x) => x.title === item.title) ?? expect.unreachable(item.title);
      expect(Object.keys(item).sort()).toEqual([...MATCH_FIELDS, ...(m.judge ? ['judge'] : [])].sort());
      expect(item).toMatchObject({
        rule_id: m.rule_id,
        municipality_id: m.municipality_id,
        status: m.status,
        matched_at: m.matched_at,
        snippet: `… ${m.title} …`,
        case_id: null,
      });
      if (m.judge) {
        expect(Object.keys(item.judge).sort()).toEqual([
          'action_type',
          'confidence',
          'is_direct_action',
          'why_en',
          'why_pt',
        ]);
        expect(item.judge).toMatchObject({ action_type: 'tender', why_pt: 'É um concurso.', confidence: 0.8 });
      }
    }
    expect(res.json.items.some((i: any) => 'judge' in i)).toBe(true);
    expect(res.json.items.some((i: any) => !('judge' in i))).toBe(true);
    const rules = new Map((await t.get('/v1/alert-rules')).json.items.map((r: any) => [r.id, r.name]));
    for (const item of res.json.items) expect(item.rule_name).toBe(rules.get(item.rule_id));
  });

  it('leaves the judge out on a plan without it, and bounds matches to its 30-day window', async () => {
    const items = await all('/v1/alert-matches', noJudge.key);
    expectMatches(items, within(noJudge, 30));
    expect(noJudge.matches.filter((m) => m.judge && Date.parse(m.matched_at) >= daysAgo(30)).length).toBeGreaterThan(0);
    for (const item of items) expect(item).not.toHaveProperty('judge');
  });

  it('clamps a `since` earlier than the window to the window, and lets a later one narrow it', async () => {
    const early = await all(`/v1/alert-matches?since=${instant(daysAgo(90))}`, noJudge.key);
    expectMatches(early, within(noJudge, 30));
    const veryEarly = await all('/v1/alert-matches?since=1990-01-01T00:00:00Z', t.keys.premium);
    expectMatches(veryEarly, within(premium, 365));
    const narrow = await all(`/v1/alert-matches?since=${instant(daysAgo(7))}`, noJudge.key);
    expectMatches(narrow, within(noJudge, 7));
    expect(narrow.length).toBeLessThan(early.length);
    expect((await t.get(`/v1/alert-matches?since=${instant(seededAt + DAY_MS)}`)).json.items).toEqual([]);
  });

  it('serves every match on a plan whose window is unbounded', async () => {
    expectMatches(await all('/v1/alert-matches', unbounded.key, 20), unbounded.matches);
    expectMatches(await all(`/v1/alert-matches?since=${instant(daysAgo(400))}`, unbounded.key), within(unbounded, 400));
  });

  it('filters by rule, municipality ids and status', async () => {
    const window = within(premium, 365);
    const [rule] = premium.ruleIds;
    expectMatches(
      await all(`/v1/alert-matches?rule=${rule}`, t.keys.premium),
      window.filter((m) => m.rule_id === rule),
    );
    expectMatches(
      await all(`/v1/alert-matches?rule=${premium.disabledRuleId}`, t.keys.premium),
      window.filter((m) => m.rule_id === premium.disabledRuleId),
    );
    expectMatches(
      await all('/v1/alert-matches?municipality=153', t.keys.premium),
      window.filter((m) => m.municipality_id === 153),
    );
    expectMatches(
      await all('/v1/alert-matches?municipality=153&municipality=190', t.keys.premium),
      window.filter((m) => m.municipality_id === 153 || m.municipality_id === 190),
    );
    expectMatches(
      await all('/v1/alert-matches?status=dismissed', t.keys.premium),
      window.filter((m) => m.status === 'dismissed'),
    );
    expectMatches(
      await all('/v1/alert-matches?status=matched', t.keys.premium),
      window.filter((m) => m.status === 'matched'),
    );
    expectMatches(
      await all(
        `/v1/alert-matches?rule=${rule}&status=matched&municipality=190&since=${instant(daysAgo(50))}`,
        t.keys.premium,
      ),
      within(premium, 50).filter((m) => m.rule_id === rule && m.status === 'matched' && m.municipality_id === 190),
    );
  });

  it("refuses another account's rule exactly like a rule that does not exist: 422 naming `rule`", async () => {
    const theirs = await t.get(`/v1/alert-matches?rule=${other.ruleIds[0]}`);
    const none = await t.get('/v1/alert-matches?rule=999999');
    expectValidation(theirs, 'rule');
    expectValidation(none, 'rule');
    expect(theirs.json.errors).toEqual(none.json.errors);
    expect(theirs.json.detail.replace(/\d+/g, 'N')).toBe(none.json.detail.replace(/\d+/g, 'N'));
    expectValidation(await t.get('/v1/alert-matches?rule=abc'), 'rule');
  });

  it('accepts 50 municipality ids and refuses 51, an unknown id or a code with 422 naming `municipality`', async () => {
    const ids = municipalitiesFromFile().map((m) => m.id);
    // Lisboa (153), which the fixture's matches are in, and 49 others.
    const chosen = [153, ...ids.filter((id) => id !== 153)];
    const query = (n: number) =>
      chosen
        .slice(0, n)
        .map((id) => `municipality=${id}`)
        .join('&');
    const fifty = new Set(chosen.slice(0, 50));
    expectMatches(
      await all(`/v1/alert-matches?${query(50)}`, t.keys.premium, 200),
      within(premium, 365).filter((m) => m.municipality_id !== null && fifty.has(m.municipality_id)),
    );
    expectValidation(await t.get(`/v1/alert-matches?${query(51)}`), 'municipality');
    expectValidation(await t.get(`/v1/alert-matches?municipality=${Math.max(...ids) + 1}`), 'municipality');
    expectValidation(await t.get('/v1/alert-matches?municipality=0'), 'municipality');
    expectValidation(await t.get('/v1/alert-matches?municipality=lisboa'), 'municipality');
  });

  it('refuses a bad status, `since`, limit or cursor', async () => {
    expectValidation(await t.get('/v1/alert-matches?status=open'), 'status');
    expectValidation(await t.get('/v1/alert-matches?since=last-week'), 'since');
    expectValidation(await t.get('/v1/alert-matches?limit=500'), 'limit');
    expectProblem(await t.get('/v1/alert-matches?cursor=Zm9yZ2Vk'), 400, 'invalid-cursor');
    const first = await t.get('/v1/alert-matches?status=matched&limit=2');
    expect(first.json.has_more).toBe(true);
    expectProblem(
      await t.get(`/v1/alert-matches?status=dismissed&limit=2&cursor=${first.json.next_cursor}`),
      400,
      'invalid-cursor',
    );
  });
});

describe('access to the alerts domain', () => {
  const routes = ['/v1/alert-rules', '/v1/alert-matches'];

  it('refuses a key without alerts:read with 403 insufficient-scope', async () => {
    for (const route of routes)
      expectProblem(await t.get(route, { key: t.keys.signalsOnlyScope }), 403, 'insufficient-scope');
  });

  it('refuses a plan without the alerts domain with 403 domain-not-in-plan', async () => {
    for (const route of routes) {
      expectProblem(await t.get(route, { key: t.keys.indicatorsOnly }), 403, 'domain-not-in-plan');
      expectProblem(await t.get(route, { key: t.keys.noIndicatorsDomain }), 403, 'domain-not-in-plan');
    }
  });

  it('serves a key with only alerts:read', async () => {
    const key = (
      await createKey(t.store, { accountId: t.accounts.premium, scopes: ['alerts:read'] }, new Date(t.clock.now))
    ).secret;
    expect((await t.get('/v1/alert-rules', { key })).json.items.map((r: any) => r.id)).toEqual(
      [...premium.ruleIds].sort((a, b) => a - b),
    );
  });
});
