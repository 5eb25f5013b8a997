/**
 * Signed agent cards (docs/a2a.md, Signed cards): the data agent's card and every company agent's card, public and
 * extended, in both shapes, carry a JWS made with a key the service's JWKS publishes, and the A2A SDK's own verifier
 * (`verifyAgentCardSignature`, @a2a-js/sdk) accepts each; a card altered by one byte fails it; after a rotation, a
 * card signed with the retired key still verifies for the stated overlap, and no longer after it.
 */
import { type AgentCard, verifyAgentCardSignature } from '@a2a-js/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import { type App, createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { OAUTH_PATHS } from '../src/lib/oauth-resource.js';
import { RETIRED_KEY_OVERLAP_DAYS, rotateSigningKeys } from '../src/oauth/signing-keys.js';
import { AGENTS_URL, type AgentHostApp, SLUGS, startAgentHost } from './helpers/agents.js';
import { storeEnv } from './helpers/backend.js';
import { BASE_URL } from './helpers/test-app.js';

let host: AgentHostApp;
/** A key of the data service (premium plan). */
let dataKey: string;
beforeAll(async () => {
  // The SDK's verifier logs each signature that fails with console.debug; here failing is the point.
  vi.spyOn(console, 'debug').mockImplementation(() => {});
  host = await startAgentHost();
  const now = new Date(host.clock.now);
  const account = await host.store.createAccount({
    name: 'Cards Lda',
    plan_code: 'premium',
    beta: false,
    now: now.toISOString(),
  });
  dataKey = (await createKey(host.store, { accountId: account.id }, now)).secret;
});
afterAll(() => host.close());
beforeEach(() => host.clock.advance(61_000));

const JWKS_URL = `${BASE_URL}${OAUTH_PATHS.jwks}`;
const DATA_CARD = `${BASE_URL}/.well-known/agent-card.json`;
/** The 1.0 card, and the 0.3-shaped one served without `A2A-Version`. */
const VERSIONS: Record<string, string>[] = [{ 'a2a-version': '1.0' }, {}];
const COMPANY_CARDS = SLUGS.map((slug) => `${AGENTS_URL}/${slug}/.well-known/agent-card.json`);

async function get(app: App, url: string, headers: Record<string, string> = {}) {
  const res = await app.http.inject({ method: 'GET', url: url.replace(BASE_URL, ''), headers });
  expect(res.statusCode, url).toBe(200);
  return res.json();
}

/** The SDK's verifier, its keys fetched from the `jku` the signature names, as a client would. */
function verifierOn(app: App) {
  return verifyAgentCardSignature(async (kid, jku) => {
    expect(jku).toBe(JWKS_URL);
    const { keys } = await get(app, jku as string);
    const key = keys.find((k: { kid: string }) => k.kid === kid);
    if (!key) throw new Error(`no key ${kid} in ${jku}`);
    return key;
  });
}

const verifies = (app: App, card: unknown) =>
  verifierOn(app)(card as AgentCard).then(
    () => true,
    () => false,
  );

const kidOf = (card: { signatures: { protected: string }[] }) =>
  JSON.parse(Buffer.from(card.signatures[0].protected, 'base64url').toString()).kid as string;

describe('every card is signed with a key of the JWKS', () => {
  it('the data agent and each company agent, 1.0 and 0.3 cards: the SDK verifier accepts them', async () => {
    for (const url of [DATA_CARD, ...COMPANY_CARDS]) {
      for (const version of VERSIONS) {
        const card = await get(host.app, url, version);
        expect(card.signatures, url).toHaveLength(1);
        const header = JSON.parse(Buffer.from(card.signatures[0].protected, 'base64url').toString());
        expect(header).toEqual({ alg: 'ES256', typ: 'JOSE', kid: expect.any(String), jku: JWKS_URL });
        expect(await verifies(host.app, card), url).toBe(true);
      }
    }
  });

  // Verified as fetched: the SDK client's own `getAgentCard(options, verifier)` canonicalises the card it decoded,
  // and decoding drops `securitySchemes` (a oneof), so no card with security schemes passes there (@a2a-js/sdk 1.3.0).
  it("the extended cards, each credential's cut: the SDK verifier accepts them", async () => {
    const calls: [string, string][] = [[`${BASE_URL}/a2a`, dataKey]];
    for (const slug of SLUGS) {
      const { a2a, licensedA2a } = host.credentials[slug];
      calls.push([`${AGENTS_URL}/${slug}/a2a`, a2a], [`${AGENTS_URL}/${slug}/a2a`, licensedA2a]);
    }
    for (const [url, secret] of calls) {
      const res = await host.app.http.inject({
        method: 'POST',
        url: url.replace(BASE_URL, ''),
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${secret}` },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} }),
      });
      const card = res.json().result;
      expect(card?.signatures, url).toHaveLength(1);
      expect(await verifies(host.app, card), url).toBe(true);
    }
  });
});

describe('a card altered by one byte fails', () => {
  const alterations: [string, (card: any) => void][] = [
    ['its name', (card) => (card.name = `${card.name.slice(0, -1)}X`)],
    [
      'its endpoint',
      (card) => (card.supportedInterfaces[0].url = card.supportedInterfaces[0].url.replace('a2a', 'a2b')),
    ],
    ['its icon', (card) => (card.iconUrl = card.iconUrl.replace('.svg', '.svh'))],
    ['a skill', (card) => (card.skills[0].description = `${card.skills[0].description.slice(0, -1)}!`)],
    ['an input schema', (card) => (card.capabilities.extensions[0].params.inputSchemas[card.skills[0].id].type = 'x')],
    ['a capability', (card) => (card.capabilities.streaming = true)],
    ['the signature', (card) => (card.signatures[0].signature = flip(card.signatures[0].signature))],
  ];
  for (const [what, alter] of alterations) {
    it(`altering ${what}`, async () => {
      for (const url of [DATA_CARD, COMPANY_CARDS[0]]) {
        const card = await get(host.app, url, { 'a2a-version': '1.0' });
        expect(await verifies(host.app, card)).toBe(true);
        alter(card);
        expect(await verifies(host.app, card), `${url}: ${what}`).toBe(false);
      }
    });
  }
});

/** The same base64url text with its first character changed. */
function flip(text: string): string {
  return `${text[0] === 'A' ? 'B' : 'A'}${text.slice(1)}`;
}

describe('rotation', () => {
  it(`keeps a retired key published ${RETIRED_KEY_OVERLAP_DAYS} days: the cards it signed still verify`, async () => {
    const before = await get(host.app, DATA_CARD, { 'a2a-version': '1.0' });
    const companyBefore = await get(host.app, COMPANY_CARDS[0], { 'a2a-version': '1.0' });
    const start = Date.now();

    // `munidata oauth keys rotate`, then an instance started after it.
    await rotateSigningKeys(host.store.oauth, start);
    const restarted = await startedAgain();
    try {
      const after = await get(restarted, DATA_CARD, { 'a2a-version': '1.0' });
      expect(kidOf(after)).not.toBe(kidOf(before));
      expect(await verifies(restarted, after)).toBe(true);
      expect(await verifies(restarted, before)).toBe(true);
      expect(await verifies(restarted, companyBefore)).toBe(true);
    } finally {
      await restarted.close();
    }

    // A rotation within the overlap keeps it; the first one after the overlap drops it.
    const day = 24 * 60 * 60 * 1000;
    await rotateSigningKeys(host.store.oauth, start + (RETIRED_KEY_OVERLAP_DAYS - 1) * day);
    const withinOverlap = await startedAgain();
    try {
      expect(await verifies(withinOverlap, before)).toBe(true);
    } finally {
      await withinOverlap.close();
    }
    await rotateSigningKeys(host.store.oauth, start + (RETIRED_KEY_OVERLAP_DAYS + 1) * day);
    const pastOverlap = await startedAgain();
    try {
      expect(await verifies(pastOverlap, before)).toBe(false);
      expect(await verifies(pastOverlap, await get(pastOverlap, DATA_CARD, { 'a2a-version': '1.0' }))).toBe(true);
    } finally {
      await pastOverlap.close();
    }
  });
});

/** Another instance on the same store, as after a restart: it reads the keys afresh. */
function startedAgain(): Promise<App> {
  const config = loadConfig({ BASE_URL, ...storeEnv(host.dbPath), LOG_LEVEL: 'silent' });
  return createApp({ config, store: host.store, clock: () => host.clock.now });
}
