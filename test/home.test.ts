/**
 * `GET /`: the bare address points to the reference, the OpenAPI document, the agent card and the MCP endpoint, and a
 * person to the explorer and the account console.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('GET /', () => {
  const homePageLinks =
    'answers a small HTML page with links to /docs, the OpenAPI document, the agent card, ' +
    'the explorer and the console, and the address of /mcp, without a key';
  it(homePageLinks, async () => {
    const res = await t.get('/', { key: null, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    for (const href of ['/docs', '/v1/openapi.json', '/.well-known/agent-card.json', '/explore', '/console']) {
      expect(res.body).toContain(`href="${BASE_URL}${href}"`);
    }
    // MCP is an endpoint for a client's POSTs, which a browser cannot open: its address is given to copy.
    expect(res.body).toContain(`<code>${BASE_URL}/mcp</code>`);
    // One main landmark holding the page, so that a screen reader's "skip to main" lands on it.
    expect(res.body).toMatch(/<body>\s*<main>\s*<h1>munidata<\/h1>[\s\S]*<\/main>\s*<\/body>/);
  });

  it('links only to what a browser opens: no link of the page answers an error', async () => {
    const home = await t.get('/', { key: null, headers: { accept: 'text/html' } });
    const hrefs = [...home.body.matchAll(/<a href="([^"]+)"/g)].map((m) => new URL(m[1]).pathname);
    expect(hrefs.length).toBeGreaterThanOrEqual(5);
    for (const path of hrefs) {
      const res = await t.get(path, { key: null, headers: { accept: 'text/html' } });
      expect(res.status, path).toBeLessThan(400);
    }
  });

  it('answers JSON to a client asking for application/json, and each address it names answers', async () => {
    const res = await t.get('/', { key: null, headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({
      docs: `${BASE_URL}/docs`,
      openapi: `${BASE_URL}/v1/openapi.json`,
      agent_card: `${BASE_URL}/.well-known/agent-card.json`,
      mcp: `${BASE_URL}/mcp`,
      explorer: `${BASE_URL}/explore`,
      console: `${BASE_URL}/console`,
    });
    for (const url of [res.json.docs, res.json.openapi, res.json.agent_card]) {
      expect((await t.get(url.slice(BASE_URL.length), { key: null })).status, url).toBe(200);
    }
    // The people's pages send a visitor to sign in, and back to the page afterwards.
    for (const url of [res.json.explorer, res.json.console]) {
      const page = await t.get(url.slice(BASE_URL.length), { key: null, headers: { accept: 'text/html' } });
      expect(page.status, url).toBe(303);
      expect(page.headers.location, url).toMatch(/^\/console\/sign-in\?next=/);
    }
  });
});
