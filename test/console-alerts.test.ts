/**
 * Alerts in the console, in a real browser (docs/console.md, Alerts): an owner writes a keyword rule, previews what
 * it would have matched (nothing recorded), saves it, edits it, turns it off and on, turns a predefined
 * subscription on for a district and off, dismisses and restores a match, and deletes the rule; bad input is
 * refused with the CLI's own message, and a member reads but cannot change (refused on the server). Every page is
 * saved under screenshots/console-alerts/ (not committed) for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import { SIGNAL_FAMILIES, SIGNAL_TYPES } from '../src/signals/catalogue.js';
import type { AlertRuleRecord } from '../src/store/signal-records.js';
import { daysBefore, EVORA, writeProcurementFixture } from './helpers/alert-fixture.js';
import { signInInBrowser } from './helpers/browser-sign-in.js';
import { launchChromium } from './helpers/chromium.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { freePort } from './helpers/free-port.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const SHOTS = resolve(import.meta.dirname, '../screenshots/console-alerts');

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];
let owner: { email: string; password: string };
let member: ConsoleClient;

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

async function rulesOf(accountId: number): Promise<AlertRuleRecord[]> {
  return t.store.listAlertRules({ accountId }, { limit: 1000 });
}

async function ruleNamed(name: string): Promise<AlertRuleRecord | undefined> {
  return (await rulesOf(t.accounts.premium)).find((r) => r.name === name);
}

async function matchesOf(ruleId: number) {
  return t.store.listAlertMatches(
    { accountId: t.accounts.premium, ruleId, since: '1970-01-01T00:00:00Z' },
    { limit: 1000 },
  );
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  await writeProcurementFixture(t.store, new Date(t.clock.now));
  owner = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@alerts.example', role: 'owner' });
  const m = await consoleUser(t, { accountId: t.accounts.premium, email: 'rui@alerts.example', role: 'member' });
  member = new ConsoleClient(t);
  await member.signIn(m.email, m.password);
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  // The refusals the test asks for (a refused form 422, a subscription's edit page 400) are logged as failed loads.
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of (400|422)/.test(message.text())) pageErrors.push(message.text());
  });
  await signInInBrowser(page, base, owner);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('alert rules in the console', () => {
  it('previews a keyword rule without recording anything, then saves it', async () => {
    await page.click('nav >> text=Alerts');
    await page.click('text=New rule…');
    await page.fill('#name', 'Dirigíveis');
    await page.fill('#keywords', 'zeppelin');
    const rulesBefore = (await rulesOf(t.accounts.premium)).length;
    await page.click('button[value=preview]');
    const preview = page.locator('section[aria-labelledby=preview]');
    await expect(preview.innerText()).resolves.toContain('Zeppelin publicitário');
    await expect(preview.innerText()).resolves.toContain('Zéppelin de observação');
    // The contract of 400 days ago is outside every plan's alert window: the matcher skips it, so does the preview.
    await expect(preview.innerText()).resolves.not.toContain('Zeppelin antigo');
    await shot('01-preview');
    expect((await rulesOf(t.accounts.premium)).length).toBe(rulesBefore);
    await expect(page.inputValue('#keywords')).resolves.toBe('zeppelin');

    await page.click('button[value=save]');
    await page.locator('.notice', { hasText: 'Saved the rule “Dirigíveis”.' }).waitFor();
    expect(page.url()).toBe(`${base}/console/alerts`); // the notice's query left the address: a reload has none
    const saved = await ruleNamed('Dirigíveis');
    expect(saved).toMatchObject({ matcher_type: 'keyword', params: { keywords: ['zeppelin'] }, enabled: true });
    expect(saved?.target_scope).toBe('national');
    await expect(page.locator('tr', { hasText: 'Dirigíveis' }).innerText()).resolves.toContain('“zeppelin”');
    await shot('02-saved');
  });

  it('says what the preview read and, when nothing matches, why: the items older than the alert window', async () => {
    await page.goto(`${base}/console/alerts/new`);
    await page.fill('#name', 'Dirigíveis antigos');
    await page.fill('#keywords', 'zeppelin antigo'); // only the contract of 400 days ago has it
    await page.click('button[value=preview]');
    const preview = page.locator('section[aria-labelledby=preview]');
    await expect(preview.innerText()).resolves.toContain('No recent item matches.');
    const scanned = await page.locator('#preview-scanned').innerText();
    expect(scanned).toMatch(/^Read (all|the store's latest) [\d\u00a0]+ changes/);
    expect(scanned).toContain('Alerts look back 365 days, to ');
    // Grouped from five digits on, as Portuguese (and the explorer) writes them: 9999, 10 000.
    expect(scanned.replace(/\d{4}-\d{2}-\d{2}/g, ''), 'counts of 10 000 and more are grouped').not.toMatch(/\d{5}/);
    const why = await page.locator('#preview-why').innerText();
    const old = daysBefore(new Date(t.clock.now), 400);
    expect(why).toMatch(/The store's items dated \S+ to \S+ \([\d\u00a0]+ changes\) are older than the 365 days/);
    const [first, last] = /dated (\S+) to (\S+) /.exec(why)?.slice(1) ?? [];
    expect(first <= old && old <= last).toBe(true);
    await shot('01b-preview-nothing');
  });

  it('groups the thousands of a large preview count as it groups the changes read', async () => {
    await page.goto(`${base}/console/alerts/new`);
    await page.fill('#name', 'Tudo');
    await page.selectOption('#type', 'signal_type');
    for (const family of ['procurement', 'indicators', 'integrity'])
      await page.check(`input[name=signal_families][value=${family}]`);
    await page.click('button[value=preview]');
    const count = await page.locator('section[aria-labelledby=preview] > p').first().innerText();
    // As every page writes a number (`4345`, `12 345`): `4,345` would read as four and a bit beside `0,85`.
    expect(count).toMatch(/^(\d{4}|\d{2,3}(\u00a0\d{3})+) recent items match; the newest 20:$/);
    await shot('01c-preview-many');
  });

  it('labels the rule form in words: no command-line option, no key of the API as a label', async () => {
    await page.goto(`${base}/console/alerts/new`);
    const words = await page
      .locator('form label, form legend, form option')
      .evaluateAll((nodes) => nodes.map((n) => (n.textContent ?? '').trim()));
    expect(words.length).toBeGreaterThan(20);
    expect(words.filter((w) => /--[a-z]|[a-z]_[a-z]/.test(w))).toEqual([]);
    expect(words).toEqual(expect.arrayContaining(['What it looks for', 'Words in the text', 'Signals']));
    // What the API names stays the value sent: a person ticks words, the form sends keys.
    const value = await page.locator('input[name=signal_types]').first().getAttribute('value');
    expect(value).toMatch(/^[a-z_]+$/);
    // The list of rules names each rule's type by the same words, not by its key (`indicator_threshold`).
    await page.goto(`${base}/console/alerts`);
    const types = await page.locator('tbody td .pill').allInnerTexts();
    expect(types.length).toBeGreaterThan(0);
    expect(types.filter((w) => /^[a-z]+(_[a-z]+)*$/.test(w) && w !== 'on' && w !== 'off')).toEqual([]);
    await page.goto(`${base}/console/alerts/new`);
    await shot('00-form');
  });

  it('refuses bad input with the CLI’s own checks, said in the form’s words, keeping what was typed', async () => {
    await page.goto(`${base}/console/alerts/new`);
    await page.fill('#name', 'Obras');
    await page.selectOption('#type', 'cpv');
    await page.fill('#cpv', '45x');
    await page.click('button[value=save]');
    await expect(page.locator('[role=alert]').innerText()).resolves.toBe(
      '“CPV codes or their first digits” "45x" is not a CPV prefix: 1 to 8 digits (45, 4523, 45233140).',
    );
    await expect(page.inputValue('#cpv')).resolves.toBe('45x');
    await shot('03-refused');
    await page.fill('#cpv', '45');
    await page.fill('#keywords', 'estradas');
    await page.click('button[value=preview]');
    await expect(page.locator('[role=alert]').innerText()).resolves.toBe(
      '“Words or phrases” is for “Words in the text”, not “Procurement categories (CPV)”.',
    );
    expect(await ruleNamed('Obras')).toBeUndefined();
  });

  it('edits a rule: a new definition is matched again from the start, a new name alone is not', async () => {
    const rule = (await ruleNamed('Dirigíveis')) as AlertRuleRecord;
    await runAlertMatching(t.store, { now: new Date(t.clock.now) });
    const matched = (await t.store.getAlertRule(rule.id))?.matched_seq ?? 0;
    expect(matched).toBeGreaterThan(0);
    const before = await matchesOf(rule.id);
    expect(before.map((m) => m.title)).toContain('Zeppelin publicitário');

    await page.goto(`${base}/console/alerts`);
    await page.click('a:text("Dirigíveis")');
    await page.fill('#name', 'Dirigíveis em Évora');
    await page.click('button[value=save]');
    await page.locator('.notice', { hasText: 'Saved the rule “Dirigíveis em Évora”.' }).waitFor();
    expect(await t.store.getAlertRule(rule.id)).toMatchObject({ name: 'Dirigíveis em Évora', matched_seq: matched });

    await page.click('a:text("Dirigíveis em Évora")');
    await page.fill('#keywords', 'zeppelin publicitário');
    await page.check('input[name=scope][value=municipalities]');
    await page.fill('#municipalities', EVORA.code);
    await shot('04-edit');
    await page.click('button[value=save]');
    await page.locator('.notice', { hasText: 'Saved the rule' }).waitFor();
    const edited = await t.store.getAlertRule(rule.id);
    expect(edited).toMatchObject({
      params: { keywords: ['zeppelin publicitário'] },
      target_scope: 'municipalities',
      municipality_ids: [EVORA.id],
      matched_seq: 0,
    });
    // The matches recorded under the old definition stay.
    expect((await matchesOf(rule.id)).length).toBe(before.length);
  });

  it('turns a rule off and on', async () => {
    const rule = (await ruleNamed('Dirigíveis em Évora')) as AlertRuleRecord;
    await page.goto(`${base}/console/alerts`);
    await page.click('button[aria-label="Turn off Dirigíveis em Évora"]');
    expect((await t.store.getAlertRule(rule.id))?.enabled).toBe(false);
    await expect(page.locator('tr', { hasText: 'Dirigíveis em Évora' }).innerText()).resolves.toContain('off');
    await shot('05-off');
    await page.click('button[aria-label="Turn on Dirigíveis em Évora"]');
    expect((await t.store.getAlertRule(rule.id))?.enabled).toBe(true);
  });

  it("gives a rule's Atom feed URL once, which a reader fetches, and stops it", async () => {
    await page.goto(`${base}/console/alerts`);
    await page.click('button[aria-label="New feed URL for Dirigíveis em Évora"]');
    const notice = await page.locator('.notice').innerText();
    const url = /(http\S+\/feeds\/alerts\/mdfeed_\S+)/.exec(notice)?.[1] as string;
    expect(url, notice).toBeDefined();
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain('<feed xmlns="http://www.w3.org/2005/Atom"');
    await shot('05b-feed');
    await page.click('button[aria-label="Stop feed of Dirigíveis em Évora"]');
    await expect(page.locator('.notice').innerText()).resolves.toContain('is stopped');
    expect((await fetch(url)).status).toBe(404);
  });

  it('turns a predefined subscription on for a district, then off, then deletes it', async () => {
    await page.goto(`${base}/console/alerts`);
    await page.click('tr:has-text("Concursos abertos de informática") >> text=Turn on…');
    await page.check('input[name=scope][value=district]');
    await page.selectOption('#district', 'Braga');
    await page.click('button:text("Turn on")');
    const sub = await ruleNamed('Concursos abertos de informática e software — distrito de Braga');
    expect(sub).toMatchObject({ target_scope: 'district', district: 'Braga', enabled: true });
    expect(sub?.template_id).not.toBeNull();
    await shot('06-subscribed');
    const label = 'Turn off Concursos abertos de informática e software — distrito de Braga';
    await page.click(`button[aria-label="${label}"]`);
    expect((await t.store.getAlertRule(sub?.id ?? 0))?.enabled).toBe(false);

    // The same subscription for the same place twice is refused, as on the command line.
    await page.click('tr:has-text("Concursos abertos de informática") >> text=Turn on…');
    await page.check('input[name=scope][value=district]');
    await page.selectOption('#district', 'Braga');
    await page.click('button:text("Turn on")');
    await expect(page.locator('.notice').innerText()).resolves.toBe(
      'You have “Concursos abertos de informática e software — distrito de Braga” already, so nothing new was ' +
        'made: it is off; Turn on in the list below starts it.',
    );
    expect((await rulesOf(t.accounts.premium)).filter((r) => r.template_id === sub?.template_id)).toHaveLength(1);

    // A subscription keeps its template's matcher: it has no edit form.
    const edit = await page.goto(`${base}/console/alerts/${sub?.id}/edit`);
    expect(edit?.status()).toBe(400);
    await expect(page.locator('[role=alert]').innerText()).resolves.toContain('A subscription keeps its template');

    await page.goto(`${base}/console/alerts`);
    await expect(page.locator('tr', { hasText: 'Concursos abertos de informática' }).innerText()).resolves.toContain(
      'District Braga',
    );
    await page.click('tr:has-text("Concursos abertos de informática") >> text=Delete…');
    await page.click('button:text("Delete this rule")');
    expect(await t.store.getAlertRule(sub?.id ?? 0)).toBeUndefined();
  });

  it('dismisses a match and restores it, page by page', async () => {
    const rule = (await ruleNamed('Dirigíveis em Évora')) as AlertRuleRecord;
    const match = (await matchesOf(rule.id)).find((m) => m.title === 'Zeppelin publicitário');
    expect(match?.status).toBe('matched');
    await page.goto(`${base}/console/alerts/matches?status=matched`);
    const row = page.locator('tr', { hasText: 'Zeppelin publicitário' });
    await row.locator('button:text("Dismiss")').click();
    expect((await t.store.getAlertMatch(match?.id ?? 0))?.status).toBe('dismissed');
    await expect(page.locator('tr', { hasText: 'Zeppelin publicitário' }).count()).resolves.toBe(0);
    await page.click('text=Dismissed');
    await shot('07-dismissed');
    await page.locator('tr', { hasText: 'Zeppelin publicitário' }).locator('button:text("Restore")').click();
    expect((await t.store.getAlertMatch(match?.id ?? 0))?.status).toBe('matched');
  });

  it('writes scores and confidences in the explorer’s number form (0,85, not 0.85)', async () => {
    // The explorer's form (assets/draw/dom.js, formatNumber): Portuguese decimals, at most two.
    const explorer = (n: number) => new Intl.NumberFormat('pt-PT', { maximumFractionDigits: 2 }).format(n);
    const rule = await createAlertRule(
      t.store,
      {
        account: t.accounts.premium,
        name: 'Sinais seguros',
        type: 'signal_type',
        signalFamilies: ['procurement'],
        minConfidence: 0.85,
      },
      new Date(t.clock.now),
    );
    await runAlertMatching(t.store, { now: new Date(t.clock.now) });
    await page.goto(`${base}/console/alerts`);
    expect(await page.locator('tr', { hasText: 'Sinais seguros' }).innerText()).toContain('confidence ≥ 0,85');
    const matches = (await matchesOf(rule.id)).slice(0, 25);
    expect(matches.some((m) => !Number.isInteger(m.score ?? 0))).toBe(true);
    await page.goto(`${base}/console/alerts/matches`);
    const rows = page.locator('tbody tr', { hasText: 'Sinais seguros' });
    const shown = await rows.locator('td.num').allInnerTexts();
    expect(shown.length).toBeGreaterThan(0);
    const scores = new Set(matches.map((m) => explorer(m.score ?? 0)));
    for (const score of shown) expect(scores.has(score), score).toBe(true);
    expect(shown.some((score) => score.includes(','))).toBe(true);
    // The rule's own numbers too: in the list, and in the form that edits it (which reads them back as they are).
    await page.goto(`${base}/console/alerts/${rule.id}/edit`);
    expect(await page.inputValue('#min_confidence')).toBe('0,85');
    const bound = await createAlertRule(
      t.store,
      {
        account: t.accounts.premium,
        name: 'Desemprego alto',
        type: 'indicator_threshold',
        indicator: 'unemployment_rate',
        above: 12.5,
      },
      new Date(t.clock.now),
    );
    await page.goto(`${base}/console/alerts`);
    expect(await page.locator('tr', { hasText: 'Desemprego alto' }).innerText()).toContain('> 12,5');
    await page.goto(`${base}/console/alerts/${bound.id}/edit`);
    expect(await page.inputValue('#above')).toBe('12,5');
    await page.click('button[value=save]');
    expect((await t.store.getAlertRule(bound.id))?.params).toMatchObject({ above: 12.5 });
    await t.store.deleteAlertRule(bound.id);
    await t.store.deleteAlertRule(rule.id);
  });

  it('pages through the matches, newest first, 25 a page', async () => {
    // Every construction record of the demo store: far more than a page (demo items are marked as generated).
    const wide = await createAlertRule(
      t.store,
      { account: t.accounts.premium, name: 'Obras (todas)', type: 'cpv', cpv: ['45'] },
      new Date(t.clock.now),
    );
    await runAlertMatching(t.store, { now: new Date(t.clock.now) });
    const all = await t.store.listAlertMatches(
      { accountId: t.accounts.premium, since: '1970-01-01T00:00:00Z' },
      { limit: 50 },
    );
    expect(all.length).toBe(50);
    await page.goto(`${base}/console/alerts/matches`);
    const ids = async () =>
      page
        .locator('tbody tr form')
        .evaluateAll((forms) => forms.map((f) => Number((f.getAttribute('action') ?? '').split('/')[4])));
    expect(await ids()).toEqual(all.slice(0, 25).map((m) => m.id));
    await expect(page.locator('tbody tr', { hasText: 'Obras (todas)' }).first().innerText()).resolves.toContain(
      'generated',
    );
    // A generated record's link is the demo's invented address, which no browser can open: its title is no link.
    const generatedLinks = await page
      .locator('tbody tr', { hasText: 'generated' })
      .locator('a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(generatedLinks).toEqual([]);
    // A date and time stay on one line (never `2026-12-` over `01 04:04`), however narrow the column.
    const broken = await page
      .locator('tbody time')
      .evaluateAll((times) => times.filter((t) => t.getClientRects().length > 1).map((t) => t.textContent));
    expect(broken).toEqual([]);
    await shot('08-matches');
    await page.click('text=Older matches →');
    expect(await ids()).toEqual(all.slice(25, 50).map((m) => m.id));
    await t.store.deleteAlertRule(wide.id);
  });

  it("shows each rule's matches in the plan's window, counted and linked to that rule's alone", async () => {
    const rule = (await ruleNamed('Dirigíveis em Évora')) as AlertRuleRecord;
    const recorded = await matchesOf(rule.id);
    expect(recorded.length).toBeGreaterThan(0);
    const idle = await createAlertRule(
      t.store,
      { account: t.accounts.premium, name: 'Nada ainda', type: 'keyword', keywords: ['zzxxyy'] },
      new Date(t.clock.now),
    );
    await page.goto(`${base}/console/alerts`);
    const row = page.locator('tr', { hasText: 'Dirigíveis em Évora' });
    await expect(row.locator('td.num a').innerText()).resolves.toBe(String(recorded.length));
    await expect(page.locator('tr', { hasText: 'Nada ainda' }).locator('td.num').innerText()).resolves.toBe('none yet');
    await row.locator('td.num a').click();
    await expect(page.locator('h1').innerText()).resolves.toBe('Alert matches: Dirigíveis em Évora');
    const shown = await page.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.children[1]?.textContent));
    expect(shown).toEqual(recorded.slice(0, 25).map(() => 'Dirigíveis em Évora'));
    await shot('08b-matches-of-a-rule');
    await t.store.deleteAlertRule(idle.id);
  });

  it('deletes a rule and its matches after a confirmation', async () => {
    const rule = (await ruleNamed('Dirigíveis em Évora')) as AlertRuleRecord;
    await page.goto(`${base}/console/alerts`);
    await page.click('tr:has-text("Dirigíveis em Évora") >> text=Delete…');
    await shot('09-delete');
    await page.click('button:text("Delete this rule")');
    expect(await t.store.getAlertRule(rule.id)).toBeUndefined();
    expect(await matchesOf(rule.id)).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});

describe('refusals', () => {
  it('lets a member read the rules and matches but change nothing (403, nothing changed)', async () => {
    const rule = await createAlertRule(
      t.store,
      { account: t.accounts.premium, name: 'Lida por todos', type: 'cpv', cpv: ['72'] },
      new Date(t.clock.now),
    );
    const list = await member.get('/console/alerts');
    expect(list.status).toBe(200);
    expect(list.body).toContain('Lida por todos');
    expect(list.body).toContain("Only the account's owner or an admin creates, changes and deletes alert rules");
    expect(list.body).not.toContain('New rule…');
    const count = (await rulesOf(t.accounts.premium)).length;
    const created = await member.post('/console/alerts/new', { name: 'x', type: 'keyword', keywords: 'estradas' });
    expect(created.status).toBe(403);
    expect(created.body).toContain('This needs the role owner or admin; you are a member.');
    expect((await member.post(`/console/alerts/${rule.id}/disable`)).status).toBe(403);
    expect((await member.post(`/console/alerts/${rule.id}/delete`)).status).toBe(403);
    expect((await rulesOf(t.accounts.premium)).length).toBe(count);
    expect((await t.store.getAlertRule(rule.id))?.enabled).toBe(true);
    expect((await member.get('/console/alerts/matches')).status).toBe(200);
  });

  it('names every field it refuses by the form’s label, never by a command-line option', async () => {
    const b = await consoleUser(t, { accountId: t.accounts.premium, email: 'words@alerts.example', role: 'admin' });
    const admin = new ConsoleClient(t);
    await admin.signIn(b.email, b.password);
    await admin.get('/console/alerts/new');
    const refusal = async (fields: Record<string, string>) => {
      const r = await admin.post('/console/alerts/new', { intent: 'save', scope: 'national', ...fields });
      expect(r.status).toBe(422);
      const said = /role="alert"[^>]*>([^<]*)</.exec(r.body)?.[1] ?? '';
      expect(said).not.toMatch(/--[a-z]/);
      return said.replaceAll('&quot;', '"');
    };
    expect(await refusal({ name: ' ', type: 'keyword', keywords: 'estradas' })).toBe('A rule needs a name (“Name”).');
    expect(
      await refusal({ name: 'Sinais', type: 'signal_type', signal_families: 'integrity', min_confidence: 'x' }),
    ).toBe('“At least this confident” "x" is not a number.');
    expect(
      await refusal({ name: 'Sinais', type: 'signal_type', signal_families: 'integrity', min_confidence: '2' }),
    ).toBe('“At least this confident” 2 is not between 0 and 1.');
    // The labels a refusal names are on the form for the person to find.
    const form = (await admin.get('/console/alerts/new')).body;
    for (const label of ['Signal types', 'Signal families', 'At least this confident', 'Tax numbers (NIF)'])
      expect(form, label).toMatch(new RegExp(`>${label.replace(/[()]/g, '\\$&')}[:,< ]`));
    expect(await refusal({ name: 'Sinais', type: 'signal_type' })).toBe(
      'A rule for “Signals” needs at least one “Signal types” or “Signal families”.',
    );
    // A refusal names the type by its choice in “What it looks for” and a field by its label, with no option's
    // metavariable (`--above N`) or type key (`indicator_threshold`) carried over from the command line.
    expect(await refusal({ name: 'CPV', type: 'cpv' })).toBe(
      'A rule for “Procurement categories (CPV)” needs at least one CPV prefix in “CPV codes or their first digits” ' +
        '(e.g. 45).',
    );
    expect(await refusal({ name: 'Limiar', type: 'indicator_threshold', above: '3' })).toBe(
      'A rule for “An indicator crossing a bound” needs “Indicator” and “Above” or “Below”.',
    );
    expect(await refusal({ name: 'Limiar', type: 'indicator_threshold', indicator: 'population' })).toBe(
      'A rule for “An indicator crossing a bound” needs exactly one of “Above” or “Below”.',
    );
    expect(await refusal({ name: 'NIF', type: 'entity', nifs: '123' })).toBe(
      '“Tax numbers (NIF)” "123" is not a Portuguese tax number (nine digits).',
    );
    expect(await refusal({ name: 'Lugar', type: 'cpv', cpv: '45', scope: 'district' })).toBe('Choose a district.');
  });

  it('lists what a rule looks for by the names the form shows, not by the API’s keys', async () => {
    const b = await consoleUser(t, { accountId: t.accounts.premium, email: 'names@alerts.example', role: 'admin' });
    const admin = new ConsoleClient(t);
    await admin.signIn(b.email, b.password);
    const now = new Date(t.clock.now);
    const base = { account: t.accounts.premium, type: 'signal_type' };
    await createAlertRule(
      t.store,
      { ...base, name: 'Nomes', signalFamilies: ['integrity'], signalTypes: ['single_bid'] },
      now,
    );
    const indicator = (await t.store.listIndicators())[0];
    await createAlertRule(
      t.store,
      {
        account: t.accounts.premium,
        name: 'Indicador',
        type: 'indicator_threshold',
        indicator: indicator.key,
        above: 5,
      },
      now,
    );
    const body = (await admin.get('/console/alerts')).body;
    const row = (name: string) => new RegExp(`<tr><td><a [^>]*>${name}</a></td>.*?</tr>`, 's').exec(body)?.[0] ?? '';
    const family = SIGNAL_FAMILIES.find((f) => f.key === 'integrity')?.label_en as string;
    const single = SIGNAL_TYPES.find((s) => s.key === 'single_bid')?.label_en as string;
    expect(row('Nomes')).toContain(`family ${family}; ${single}`);
    expect(row('Nomes')).not.toContain('single_bid');
    expect(row('Indicador')).toContain(`${indicator.name} &gt; 5`);
  });

  it('answers another account’s rule as if it did not exist (404)', async () => {
    const other = await createAlertRule(
      t.store,
      { account: t.accounts.beta, name: 'De outra conta', type: 'cpv', cpv: ['45'] },
      new Date(t.clock.now),
    );
    const b = await consoleUser(t, { accountId: t.accounts.premium, email: 'admin@alerts.example', role: 'admin' });
    const admin = new ConsoleClient(t);
    await admin.signIn(b.email, b.password);
    // Its matches, asked for by its id, are refused the same way.
    const matches = await admin.get(`/console/alerts/matches?rule=${other.id}`);
    expect(matches.status).toBe(404);
    expect(matches.body).toContain('No such alert rule in your account.');
    await admin.get('/console/alerts');
    expect((await admin.get(`/console/alerts/${other.id}/edit`)).status).toBe(404);
    // Deleting it reads as deleting a rule that is gone already: back to the list, nothing of theirs said or done;
    // its confirmation page too.
    const confirm = await admin.get(`/console/alerts/${other.id}/delete`);
    expect(confirm.status).toBe(303);
    expect(confirm.headers.location).toBe('/console/alerts?done=deleted-already');
    expect(confirm.body).not.toContain('De outra conta');
    const deleted = await admin.post(`/console/alerts/${other.id}/delete`);
    expect(deleted.status).toBe(303);
    expect(deleted.headers.location).toBe('/console/alerts?done=deleted-already');
    expect(await t.store.getAlertRule(other.id)).toBeDefined();
  });
});
