/**
 * A rule's Atom feed at a secret, revocable URL (docs/alerts.md, "Feeds"), on a copy of the demo store (SQLite, or
 * PostgreSQL with MUNIDATA_TEST_BACKEND=postgres): valid Atom as an XML parser reads it, with the rule's matches;
 * a title holding markup comes back as the same text, never as markup; a new URL replaces the old, and a revoked
 * one answers 404; the store holds the token's hash only.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedTokenHash, issueRuleFeed, revokeRuleFeed } from '../src/admin/alert-feeds.js';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import { contracts } from './helpers/alert-fixture.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

const NOW = new Date();
/** Markup and an ampersand in what a buyer wrote: a reader must show it as text. */
const OBJECT = 'Zeppelin <script>alert("x")</script> & <b>balões</b>';

/** A contract as the portal lists it, with its address there. */
const [contract] = contracts(NOW);

let t: TestApp;
let ruleId: number;

beforeAll(async () => {
  t = await startTestApp();
  const { store } = t;
  const account = (
    await store.createAccount({ name: 'Redacção', plan_code: 'premium', beta: false, now: NOW.toISOString() })
  ).id;
  ruleId = (await createAlertRule(store, { account, name: 'Zeppelins', type: 'keyword', keywords: ['zeppelin'] }, NOW))
    .id;
  await store.writeProcurement({
    contracts: [
      { ...contract, source_id: 'FEED-1', object: OBJECT },
      // A record the portal gives no address for: the reader still has somewhere to go.
      { ...contract, source_id: 'FEED-2', object: 'Zeppelin sem endereço', link: null },
    ],
  });
  await runAlertMatching(store, { now: NOW });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function read(url: string) {
  const res = await t.app.http.inject({ url: url.slice(BASE_URL.length) });
  return { status: res.statusCode, type: res.headers['content-type'], body: res.body, headers: res.headers };
}

describe("a rule's Atom feed", () => {
  it("is valid Atom holding the rule's matches, markup in a title kept as text", async () => {
    const { url } = await issueRuleFeed(t.store, ruleId, BASE_URL, NOW);
    expect(url).toMatch(new RegExp(`^${BASE_URL}/feeds/alerts/mdfeed_[A-Za-z0-9_-]{43}$`));
    const res = await read(url);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(XMLValidator.validate(res.body)).toBe(true);
    expect(res.body).not.toMatch(/<script|<b>/);

    const { feed } = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'entry' }).parse(res.body);
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    for (const required of ['id', 'title', 'updated', 'author']) expect(feed[required], required).toBeDefined();
    expect(feed.title['#text']).toBe('munidata alerts: Zeppelins');
    const titles = feed.entry.map((e: { title: { '#text': string } }) => e.title['#text']);
    expect(titles).toHaveLength(2);
    // The parser decodes the entities: what the buyer wrote, character for character.
    expect(titles.some((title: string) => title.includes(OBJECT))).toBe(true);
    for (const entry of feed.entry) {
      expect(entry.id).toMatch(/^urn:munidata:alert-match:\d+$/);
      expect(Number.isNaN(Date.parse(entry.updated))).toBe(false);
      // RFC 4287 4.1.1: an entry without content has an alternate link.
      expect(entry.link['@_rel']).toBe('alternate');
    }
    const links = Object.fromEntries(
      feed.entry.map((e: { title: { '#text': string }; link: { '@_href': string } }) => [
        e.title['#text'],
        e.link['@_href'],
      ]),
    );
    expect(links[OBJECT]).toBe(contract.link);
    const [unaddressed] = await t.store.listContracts({ words: ['endereco'] }, { limit: 1 });
    expect(links['Zeppelin sem endereço']).toBe(`${BASE_URL}/explore/contracts/${unaddressed.id}`);
  });

  it('stops at a new URL or a revocation, and the store keeps only the hash', async () => {
    const first = await issueRuleFeed(t.store, ruleId, BASE_URL, NOW);
    const second = await issueRuleFeed(t.store, ruleId, BASE_URL, NOW);
    expect((await read(first.url)).status).toBe(404);
    expect((await read(second.url)).status).toBe(200);
    const token = second.url.split('/').at(-1) as string;
    expect(await t.store.findAlertFeedRule(token)).toBeUndefined();
    expect(await t.store.findAlertFeedRule(feedTokenHash(token))).toBe(ruleId);

    expect(await revokeRuleFeed(t.store, ruleId)).toBe(true);
    const revoked = await read(second.url);
    expect([revoked.status, revoked.type]).toEqual([404, 'text/plain; charset=utf-8']);
    expect(await revokeRuleFeed(t.store, ruleId)).toBe(false);
    expect((await read(`${BASE_URL}/feeds/alerts/not-a-token`)).status).toBe(404);
    await expect(issueRuleFeed(t.store, 999_999, BASE_URL, NOW)).rejects.toThrow(/No alert rule with id 999999/);
  });
});
