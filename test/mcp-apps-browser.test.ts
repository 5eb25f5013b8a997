/**
 * MCP Apps in a real browser (Chromium through playwright-core): a host page built on the extension's official host
 * bridge (test/helpers/mcp-apps-host/host.js) calls a tool on the real /mcp, reads the `ui://` view the tool
 * names, frames it through a sandbox proxy of another origin under the CSP the view declares, and passes it the tool
 * result. The map colours the 308 municipalities, the series draws a line per municipality, the buyer panel its
 * years and its flags; the view makes no request of its own. Screenshots at 1280 px go to screenshots/mcp-apps/
 * (gitignored).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import { freePort } from './helpers/free-port.js';
import { listen } from './helpers/mcp-tools.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

/** The browser globals the evaluated callbacks use (they run in the page; this program has no DOM types). */
declare const document: any;
declare const window: any;

const HOST_FILES = join(import.meta.dirname, 'helpers', 'mcp-apps-host');
const SHOTS = join(import.meta.dirname, '..', 'screenshots', 'mcp-apps');

let t: TestApp;
let browser: Browser;
let host: Server;
let sandbox: Server;
let hostUrl: string;
const requests: string[] = [];
const problems: string[] = [];

/** The official host bridge and the MCP client as one browser script exposing `window.McpHost`. */
async function hostBundle(): Promise<string> {
  const entry =
    "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';\n" +
    "export { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';\n";
  const out = await build({
    input: 'host-entry',
    cwd: import.meta.dirname,
    platform: 'browser',
    write: false,
    output: { format: 'iife', name: 'McpHost' },
    plugins: [
      {
        name: 'host-entry',
        resolveId: (id) => (id === 'host-entry' ? id : null),
        load: (id) => (id === 'host-entry' ? entry : null),
      },
    ],
  });
  return out.output[0].code;
}

/** A loopback server answering `routes` by path; `POST /mcp` goes to `mcp`. */
async function serve(port: number, routes: Record<string, [string, string]>, mcp?: string): Promise<Server> {
  const server = createServer(async (req, res) => {
    if (req.url === '/mcp' && mcp) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      // What a chat client's backend does: the key stays on the server, the browser's Origin does not travel.
      const answer = await fetch(mcp, {
        method: req.method,
        headers: {
          authorization: `Bearer ${t.keys.premium}`,
          'content-type': req.headers['content-type'] ?? 'application/json',
          accept: req.headers.accept ?? 'application/json, text/event-stream',
          ...(req.headers['mcp-protocol-version']
            ? { 'mcp-protocol-version': String(req.headers['mcp-protocol-version']) }
            : {}),
        },
        body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
      return;
    }
    // The browser asks each origin for its icon; there is none.
    if (req.url === '/favicon.ico') return res.writeHead(204).end();
    const route = routes[req.url ?? ''];
    if (!route) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': route[0] }).end(route[1]);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  t = await startTestApp();
  const mcp = await listen(t);
  const [hostPort, sandboxPort] = [await freePort(), await freePort()];
  hostUrl = `http://127.0.0.1:${hostPort}/`;
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}/sandbox.html`;
  const page =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>MCP Apps host</title>` +
    '<style>body{font-family:sans-serif;margin:16px} iframe{border:1px solid #ccc;width:800px;display:block;' +
    'margin:8px 0}</style></head>' +
    `<body data-sandbox="${sandboxUrl}"><h1>Conversation</h1><div id="conversation"></div>` +
    '<script src="/host-bundle.js"></script><script src="/host.js"></script></body></html>';
  host = await serve(
    hostPort,
    {
      '/': ['text/html; charset=utf-8', page],
      '/host-bundle.js': ['text/javascript; charset=utf-8', await hostBundle()],
      '/host.js': ['text/javascript; charset=utf-8', readFileSync(join(HOST_FILES, 'host.js'), 'utf8')],
    },
    mcp,
  );
  sandbox = await serve(sandboxPort, {
    '/sandbox.html': ['text/html; charset=utf-8', readFileSync(join(HOST_FILES, 'sandbox.html'), 'utf8')],
  });
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  host?.closeAllConnections();
  host?.close();
  sandbox?.close();
  await t?.close();
});

/** A fresh host page that has shown one tool call; the view's frame once it has drawn. */
async function show(name: string, args: object): Promise<{ page: Page; view: Frame }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('request', (request) => requests.push(request.url()));
  page.on('response', (response) => {
    // 405: the MCP client offers to open an SSE stream (GET /mcp), which this stateless server declines.
    const declinedStream = response.status() === 405 && response.request().method() === 'GET';
    if (response.status() >= 400 && !declinedStream) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`${name}: ${error}`));
  page.on('console', (message) => {
    // Failed loads are judged by their response above; any other error (a CSP refusal, a script error) counts.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`${name}: ${message.text()}`);
    }
  });
  await page.goto(hostUrl);
  const uri = await page.evaluate(([n, a]) => window.showTool(n, a), [name, args] as const);
  expect(uri).toMatch(/^ui:\/\/munidata\//);
  let view: Frame | undefined;
  await expect
    .poll(() => (view = page.frames().find((f) => f.url() === 'about:srcdoc')), { timeout: 15_000 })
    .toBeTruthy();
  await (view as Frame).waitForSelector('#view[data-drawn="true"]', { timeout: 15_000 });
  return { page, view: view as Frame };
}

/**
 * The whole page at 1280 px wide: the viewport grows to the page's height first (Chromium leaves a cross-origin
 * frame's part below the viewport out of a full-page capture).
 */
async function screenshot(page: Page, name: string): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1280, height });
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

describe('MCP Apps views in a host', () => {
  it('colours the 308 municipalities of an indicator snapshot', async () => {
    const { page, view } = await show('indicators_snapshot', { key: 'population', limit: 308 });
    const shapes = await view.evaluate(() =>
      [...document.querySelectorAll('svg.map path.m')].map((p: any) => p.getAttribute('fill')),
    );
    expect(shapes).toHaveLength(308);
    const coloured = shapes.filter((fill) => fill?.startsWith('#'));
    // Every municipality has a population: each is filled with a class colour, and the classes differ.
    expect(coloured).toHaveLength(308);
    expect(new Set(coloured).size).toBeGreaterThanOrEqual(5);
    // The indicator's name came through the bridge (the view calls indicators_get), not the bare key.
    const { name } = (await t.get('/v1/indicators/population')).json;
    expect(await view.textContent('h1')).toBe(`${name} by municipality`);
    expect(await view.locator('.legend li').count()).toBeGreaterThanOrEqual(6);
    // The demo's population is generated, and the view says so, as the explorer's pictures do.
    expect(await view.textContent('.data-mark')).toContain('Generated data');
    // The frame fits the view: the host sized it from the view's size-changed notification (the last one may still
    // be on its way when the view has drawn, on a loaded machine: asked until it has come, for a few seconds).
    await expect
      .poll(
        async () => {
          const frameHeight = await page.evaluate(
            () => document.querySelector('iframe').getBoundingClientRect().height,
          );
          const viewHeight = await view.evaluate(() => document.documentElement.scrollHeight);
          return Math.abs(frameHeight - viewHeight);
        },
        { timeout: 5_000 },
      )
      .toBeLessThanOrEqual(4);
    await screenshot(page, 'indicator-map');
    await page.close();
  });

  it('draws a line per municipality of an indicator series', async () => {
    const { page, view } = await show('indicators_series', {
      key: 'population',
      municipality: ['1106', '1312', '0303'],
    });
    expect(await view.locator('svg path.series').count()).toBe(3);
    expect(await view.locator('svg circle').count()).toBeGreaterThan(3);
    expect(await view.textContent('.data-mark')).toContain('Generated data');
    await screenshot(page, 'indicator-series');
    await page.close();
  });

  it("draws a buyer's euros per year and its integrity flags", async () => {
    const profile = await show('procurement_entity_profile', { nif: '500051070' });
    expect(await profile.view.textContent('h1')).toContain('Lisboa');
    expect(await profile.view.locator('svg rect').count()).toBeGreaterThan(0);
    expect(await profile.view.textContent('.data-mark')).toContain('Generated data');
    await screenshot(profile.page, 'procurement-entity');
    await profile.page.close();
    const flags = await show('procurement_entity_red_flags', { nif: '500051070' });
    expect(await flags.view.textContent('h1')).toContain('Integrity flags');
    expect(await flags.view.locator('table tbody tr').count()).toBeGreaterThan(3);
    expect(await flags.view.textContent('.data-mark')).toContain('Generated data');
    await screenshot(flags.page, 'procurement-red-flags');
    await flags.page.close();
  });

  it('made no request outside the host, its bridge and the sandbox, and broke no CSP', () => {
    const own = new Set([hostUrl, `${hostUrl}host-bundle.js`, `${hostUrl}host.js`, `${hostUrl}mcp`]);
    const other = requests.filter(
      (url) => !own.has(url) && !url.endsWith('/sandbox.html') && !url.endsWith('/favicon.ico'),
    );
    expect(other).toEqual([]);
    expect(problems).toEqual([]);
  });
});
