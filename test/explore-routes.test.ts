/**
 * The explorer's routes over HTTP (in-process): who sees which page, the files it loads and their weight, and
 * its data routes, which answer exactly what /v1 answers (bytes, ETag, quota) for the viewer (docs/explorer.md).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { countBy, signalsByEvent } from './helpers/signals-by-event.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
/** A signed-in member of each account the tests look with. */
const viewers = {} as Record<'premium' | 'indicatorsOnly' | 'noIndicatorsDomain' | 'free', ConsoleClient>;

beforeAll(async () => {
  t = await startTestApp();
  for (const name of Object.keys(t.accounts).filter((n) => n !== 'beta') as (keyof typeof viewers)[]) {
    const user = await consoleUser(t, {
      accountId: t.accounts[name],
      email: `viewer@${name.toLowerCase()}.example`,
      role: 'member',
    });
    viewers[name] = new ConsoleClient(t);
    const signedIn = await viewers[name].signIn(user.email, user.password);
    expect(signedIn.status).toBe(303);
  }
});

/** A GET as the signed-in member of `who`'s account, with extra headers. */
async function look(who: keyof typeof viewers, url: string, headers: Record<string, string> = {}) {
  const cookie = [...viewers[who].cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await t.app.http.inject({ method: 'GET', url, headers: { cookie, ...headers } });
  let json: any;
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, body: res.body, json };
}

afterAll(async () => {
  await t?.close();
});

async function usedThisMonth(key: string): Promise<number> {
  return (await t.get('/v1/me', { key })).json.usage.requests_this_month;
}

describe('explorer pages', () => {
  it('sends a visitor without a session to sign in (an API key is no session), coming back to the page', async () => {
    const res = await t.get('/explore/municipalities/lisboa?indicator=population', { key: t.keys.premium });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(
      `/console/sign-in?next=${encodeURIComponent('/explore/municipalities/lisboa?indicator=population')}`,
    );
    // Signing in there comes back here.
    const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'back@premium.example', role: 'member' });
    const client = new ConsoleClient(t);
    await client.get(res.headers.location as string);
    const back = await client.post('/console/sign-in', {
      email: user.email,
      password: user.password,
      next: '/explore/municipalities/lisboa?indicator=population',
    });
    expect(back.status).toBe(303);
    expect(back.headers.location).toBe('/explore/municipalities/lisboa?indicator=population');
  });

  it("serves the map to a signed-in user: a shell with the view's configuration and no inline script", async () => {
    const res = await look('premium', '/explore');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const scripts = [...res.body.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
    for (const attributes of scripts) expect(attributes).toMatch(/src="\/explore\/assets\/|type="application\/json"/);
    const config = JSON.parse(
      /<script type="application\/json" id="explore-config">(.*?)<\/script>/s.exec(res.body)?.[1] ?? '{}',
    );
    expect(config).toMatchObject({
      view: 'map',
      baseUrl: 'http://munidata.test',
      apiPrefix: '/explore/api',
      csvPrefix: '/explore/csv',
    });
    expect(config.domains).toEqual(['indicators', 'signals', 'procurement', 'alerts', 'bulk']);
    expect(res.body).toContain('href="/explore/procurement"');
  });

  it('names the municipality of its page, by code or slug; an unknown one is 404', async () => {
    for (const ref of ['1106', 'lisboa']) {
      const res = await look('premium', `/explore/municipalities/${ref}`);
      expect(res.status).toBe(200);
      expect(res.body).toContain('<h1 id="title">Lisboa</h1>');
    }
    const missing = await look('premium', '/explore/municipalities/atlantida');
    expect(missing.status).toBe(404);
    expect(missing.body).toContain('No such municipality');
  });

  it('shows a plan only the views of its domains', async () => {
    const page = await look('indicatorsOnly', '/explore');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('href="/explore/procurement"');
    expect(page.body).not.toContain('href="/explore/signals"');
    const procurement = await look('indicatorsOnly', '/explore/procurement');
    expect(procurement.status).toBe(403);
    expect(procurement.body).toContain('procurement data, which your plan does not include');
    const signalsOnly = await look('noIndicatorsDomain', '/explore');
    expect(signalsOnly.status).toBe(403);
  });

  const pagesOfTheirOwn =
    'opens a contract, a buyer or supplier and a signal on a page of its own, for plans with their domain';
  it(pagesOfTheirOwn, async () => {
    const contract = (await t.get('/v1/procurement/contracts?limit=1')).json.items[0];
    const signal = (await t.get('/v1/signals?limit=1')).json.items[0];
    const pages: [string, Record<string, unknown>][] = [
      [`/explore/contracts/${contract.id}`, { view: 'contract', id: String(contract.id) }],
      [`/explore/entities/${contract.suppliers[0].nif}`, { view: 'entity', nif: contract.suppliers[0].nif }],
      [`/explore/signals/${signal.id}`, { view: 'signal', id: String(signal.id) }],
    ];
    for (const [path, expected] of pages) {
      const res = await look('premium', path);
      expect(res.status, path).toBe(200);
      const config = JSON.parse(
        /<script type="application\/json" id="explore-config">(.*?)<\/script>/s.exec(res.body)?.[1] ?? '{}',
      );
      expect(config, path).toMatchObject(expected);
      expect(config.municipalities, path).toHaveLength(308);
    }
    // An address that cannot name one is no page; a plan without the domain is told so.
    for (const path of [
      '/explore/contracts/abc',
      '/explore/contracts/0',
      '/explore/entities/12345',
      '/explore/signals/1e3',
    ]) {
      const res = await look('premium', path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toContain('Not found');
    }
    expect((await look('indicatorsOnly', `/explore/contracts/${contract.id}`)).status).toBe(403);
    expect((await look('indicatorsOnly', `/explore/signals/${signal.id}`)).status).toBe(403);
  });

  it('links every page, a refusal too, back to the console and the home page', async () => {
    for (const path of [
      '/explore',
      '/explore/procurement',
      '/explore/signals',
      '/explore/municipalities/1106',
      '/explore/signals/1',
    ]) {
      const res = await look('premium', path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toContain('<a href="/console">Console</a>');
      expect(res.body, path).toContain('<a href="/">Home</a>');
    }
    const refused = await look('indicatorsOnly', '/explore/procurement');
    expect(refused.body).toContain('<a href="/console">Console</a>');
    expect(refused.body).toContain('<a href="/">Home</a>');
  });

  it('tells a plan without data access why there is nothing to see', async () => {
    const res = await look('free', '/explore');
    expect(res.status).toBe(403);
    expect(res.body).toContain('Not in your plan');
  });
});

describe('explorer files', () => {
  // Under /explore/: the explorer's own files in assets/, the drawing modules it shares with the MCP Apps views in
  // draw/ (where the pages' `../draw/…` imports resolve).
  const files = [
    'assets/d3.min.js',
    'assets/topojson-client.min.js',
    'assets/municipalities.topo.json',
    'assets/explore.css',
    'assets/common.js',
    'draw/geo.js',
    'draw/scale.js',
    'draw/snapshot-map.js',
    'assets/map.js',
  ];

  it('serves its scripts, style and boundaries itself, revalidated by ETag', async () => {
    for (const name of files) {
      const res = await t.get(`/explore/${name}`, { key: null });
      expect(res.status, name).toBe(200);
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await t.get(`/explore/${name}`, { key: null, headers: { 'if-none-match': etag } });
      expect(again.status, name).toBe(304);
    }
    expect((await t.get('/explore/assets/../package.json', { key: null })).status).toBe(404);
    expect((await t.get('/explore/draw/../package.json', { key: null })).status).toBe(404);
    const topology = (await t.get('/explore/assets/municipalities.topo.json', { key: null })).json;
    expect(topology.objects.municipalities.geometries).toHaveLength(308);
  });

  it('weighs under 250 KB compressed, every file of every view', async () => {
    const own = (await look('premium', '/explore')).body;
    expect(own).toContain('/explore/assets/map.js');
    const folder = (name: string) => readdirSync(join(import.meta.dirname, '..', 'assets', name));
    const names = new Set([
      ...files,
      ...folder('explore').map((name) => `assets/${name}`),
      ...folder('draw').map((name) => `draw/${name}`),
    ]);
    let total = gzipSync(own).length;
    for (const name of names) {
      const res = await t.app.http.inject({ method: 'GET', url: `/explore/${name}` });
      if (res.statusCode === 200) total += gzipSync(res.rawPayload).length;
    }
    expect(total).toBeLessThan(250 * 1024);
  });
});

describe('explorer data routes', () => {
  const v1 = '/v1/indicators/unemployment_rate/snapshot?limit=20';

  it('answer what /v1 answers, with the same ETag; a 304 is free of quota', async () => {
    const api = await t.get(v1);
    const explorer = await look('premium', `/explore/api${v1}`);
    expect(explorer.status).toBe(200);
    expect(explorer.body).toBe(api.body);
    expect(explorer.headers.etag).toBe(api.headers.etag);
    expect(explorer.headers['cache-control']).toBe('private, max-age=60');

    const before = await usedThisMonth(t.keys.premium);
    const again = await look('premium', `/explore/api${v1}`, { 'if-none-match': explorer.headers.etag as string });
    expect(again.status).toBe(304);
    expect(await usedThisMonth(t.keys.premium)).toBe(before);
    await look('premium', `/explore/api${v1}`);
    expect(await usedThisMonth(t.keys.premium)).toBe(before + 1);
  });

  it('answer CSV under /explore/csv, as /v1 does for Accept: text/csv', async () => {
    const api = await t.get(v1, { headers: { accept: 'text/csv' } });
    const explorer = await look('premium', `/explore/csv${v1}`);
    expect(explorer.status).toBe(200);
    expect(explorer.headers['content-type']).toContain('text/csv');
    expect(explorer.body).toBe(api.body);
  });

  it("refuse what the viewer's plan does not include, as the API does", async () => {
    const res = await look('indicatorsOnly', '/explore/api/v1/procurement/aggregate');
    expect(res.status).toBe(403);
    expect(res.json.type).toContain('domain-not-in-plan');
    const visitor = await t.get(`/explore/api${v1}`);
    expect(visitor.status).toBe(303);
    expect(visitor.headers.location).toMatch(/^\/console\/sign-in\?next=/);
    const invalid = await look('premium', '/explore/api/v1/indicators/unemployment_rate/snapshot?limit=0');
    expect(invalid.status).toBe(422);
  });
});

describe("the explorer's own request: the latest signals by event date", () => {
  const sameSignalsAsApi =
    'answers the signals /v1/signals answers for the same filters, latest event first, with the counts of all';
  it(sameSignalsAsApi, async () => {
    for (const query of ['', 'family=procurement', 'municipality=1312&min_confidence=0.7']) {
      const all = await signalsByEvent(t, query);
      const res = await look('premium', `/explore/api/signals/latest?limit=300${query ? `&${query}` : ''}`);
      expect(res.status, query).toBe(200);
      expect(res.headers['cache-control']).toBe('private, max-age=60');
      expect(
        res.json.items.map((s: any) => s.id),
        query,
      ).toEqual(all.slice(0, 300).map((s) => s.id));
      expect(res.json.items[0], query).toEqual(all[0]);
      expect(res.json.matched, query).toBe(all.length);
      expect(res.json.families, query).toEqual(countBy(all, 'family'));
      expect(res.json.types, query).toEqual(countBy(all, 'type'));
    }
  });

  it('is one request of the quota, refused like /v1/signals where the plan or the input says no', async () => {
    const before = await usedThisMonth(t.keys.premium);
    expect((await look('premium', '/explore/api/signals/latest?limit=7')).status).toBe(200);
    expect(await usedThisMonth(t.keys.premium)).toBe(before + 1);
    const refused = await look('indicatorsOnly', '/explore/api/signals/latest');
    expect(refused.status).toBe(403);
    expect(refused.json.type).toContain('domain-not-in-plan');
    for (const bad of ['limit=1001', 'limit=0', 'cursor=abc', 'family=nope', 'since=yesterday', 'colour=red']) {
      const res = await look('premium', `/explore/api/signals/latest?${bad}`);
      expect(res.status, bad).toBe(422);
    }
    // Not an address of the public API.
    expect((await t.get('/v1/signals/latest')).status).not.toBe(200);
  });
});
