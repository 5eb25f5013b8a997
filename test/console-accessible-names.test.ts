/**
 * What a person who speaks to the console (voice control: "click Stop feed") or listens to it hears: a control that
 * carries an aria-label says its visible words in it, so the words on the screen name it (WCAG 2.5.3, Label in
 * Name). The console's pages are read as an account's owner sees them, with a rule, a key and an endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { SOLAR_INSTALLER } from '../src/agents/demo/solar-installer.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let owner: ConsoleClient;
let member: ConsoleClient;

const PAGES = [
  '/console/keys',
  '/console/usage',
  '/console/alerts',
  '/console/alerts/new',
  '/console/alerts/matches',
  '/console/webhooks',
  '/console/agents',
  '/console/marketplace',
  '/console/account',
  '/console/apps',
];

/** The words a person sees: tags gone, entities of the page's text decoded, spaces folded. */
const visible = (markup: string) =>
  markup
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();

/** Each button and link with an aria-label: its label and its visible words. */
function labelled(body: string): { label: string; words: string }[] {
  return [...body.matchAll(/<(button|a)\b[^>]*\baria-label="([^"]*)"[^>]*>([\s\S]*?)<\/\1>/g)].map((m) => ({
    label: visible(m[2]),
    words: visible(m[3]),
  }));
}

beforeAll(async () => {
  t = await startTestApp();
  const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@names.example', role: 'owner' });
  owner = new ConsoleClient(t);
  await owner.signIn(user.email, user.password);
  const reader = await consoleUser(t, { accountId: t.accounts.premium, email: 'rui@names.example', role: 'member' });
  member = new ConsoleClient(t);
  await member.signIn(reader.email, reader.password);
  await owner.get('/console/keys');
  await owner.post('/console/keys', { label: 'names', scopes: ['signals:read'] });
  await owner.get('/console/agents');
  await owner.post('/console/agents/upload', { file: JSON.stringify({ ...SOLAR_INSTALLER, slug: 'names-solar' }) });
  await createAlertRule(
    t.store,
    { account: t.accounts.premium, name: 'Pontes no Porto', type: 'keyword', keywords: ['ponte'] },
    new Date(t.clock.now),
  );
});

afterAll(async () => {
  await t?.close();
});

describe('accessible names in the console', () => {
  it('every control with an aria-label says its visible words in it', async () => {
    const mismatched: string[] = [];
    let seen = 0;
    for (const path of PAGES) {
      const res = await owner.get(path);
      expect(res.status, path).toBe(200);
      for (const { label, words } of labelled(res.body)) {
        seen++;
        if (words && !label.includes(words)) mismatched.push(`${path}: “${words}” labelled “${label}”`);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(3); // the rule's Turn off, Feed URL and Stop feed at least
    expect(mismatched).toEqual([]);
  });

  it('names each field by words the page shows, the words its refusals quote', async () => {
    for (const path of PAGES) {
      const body = (await owner.get(path)).body;
      const shown = visible(body.replace(/<(script|style)[\s\S]*?<\/\1>/g, ''));
      const fields = [...body.matchAll(/<(?:input|textarea|select)\b[^>]*>/g)].map((m) => m[0]);
      for (const field of fields) {
        const label = /\baria-label="([^"]*)"/.exec(field)?.[1];
        if (label) expect(shown, `${path}: ${field}`).toContain(visible(label));
        const by = /\baria-labelledby="([^"]*)"/.exec(field)?.[1];
        if (by) expect(body, `${path}: ${field}`).toContain(`id="${by}"`);
      }
    }
  });

  it('names every column heading, the column of buttons too (axe: empty-table-header)', async () => {
    const unnamed: string[] = [];
    for (const [who, path] of [
      ...PAGES.map((p) => [owner, p] as const),
      [owner, '/console/agents/names-solar'] as const,
      [member, '/console/keys'] as const,
      [member, '/console/alerts'] as const,
    ]) {
      const body = (await who.get(path)).body;
      for (const [cell, words] of body.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g))
        if (!visible(words)) unnamed.push(`${path}: ${cell}`);
    }
    expect(unnamed).toEqual([]);
  });
});
