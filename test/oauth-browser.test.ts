/**
 * OAuth end to end as a person and their apps go through it (docs/oauth.md): the MCP SDK's own client, knowing
 * only `{base}/mcp`, discovers the authorization server, registers (DCR), and sends the account owner through
 * sign-in and consent in a real browser (Debian's Chromium via playwright-core); it then lists and calls tools
 * with its token. The same token works on /a2a through the A2A SDK client. The owner disconnects the app in the
 * console, and both channels refuse the token at once. Beside it, a client known by its metadata document (served
 * by a local server: loopback is allowed only because the service runs on a loopback base URL) gets a token too.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SendMessageRequest } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { pkce } from './helpers/oauth-flow.js';
import { freePort } from './helpers/redis.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let base: string;
let browser: Browser;
let page: Page;
let owner: { email: string; password: string };
/** The app's loopback redirect: it records the query of each request (the code, the state, iss). */
let callback: Server;
let callbackUrl: string;
const callbacks: URLSearchParams[] = [];

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  owner = await consoleUser(t, { accountId: t.accounts.premium, email: 'owner@oauth.example', role: 'owner' });
  callback = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/client.json') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(metadataDocument()));
      return;
    }
    if (url.pathname === '/callback') callbacks.push(url.searchParams);
    response.setHeader('content-type', 'text/plain');
    response.end('You may close this window.');
  });
  callback.listen(0, '127.0.0.1');
  await new Promise((resolve) => callback.once('listening', resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchChromium();
  page = await browser.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callback?.close(resolve));
  await t?.close();
});

/** An MCP client application's OAuth state, kept in memory; its redirect opens the page in the browser. */
class BrowserProvider implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  get redirectUrl() {
    return callbackUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Claudia Desktop (test)',
      redirect_uris: [callbackUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** What a person does with the authorization URL: open it, sign in, read the consent page, allow. */
async function signInAndAllow(
  url: URL,
  { untickedFirst = false } = {},
): Promise<{ clientName: string; redirectHost: string; origin: string }> {
  const before = callbacks.length;
  await page.goto(url.href);
  expect(new URL(page.url()).pathname).toBe('/console/sign-in');
  await page.fill('input[name="email"]', owner.email);
  await page.fill('input[name="password"]', owner.password);
  await Promise.all([page.waitForURL(/\/console\/connect\//), page.click('button[type="submit"]')]);
  const shown = {
    clientName: (await page.textContent('#client-name')) ?? '',
    redirectHost: (await page.textContent('#redirect-host')) ?? '',
    origin: (await page.textContent('#client-origin')) ?? '',
  };
  if (untickedFirst) await allowNothing(before);
  await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackUrl)), page.click('button[value="allow"]')]);
  expect(callbacks.length).toBe(before + 1);
  return shown;
}

/**
 * Allow with every scope unticked: the page answers 422, says nothing was allowed and asks again (the app hears
 * nothing yet, no silent refusal), its boxes ticked afresh.
 */
async function allowNothing(callbacksBefore: number): Promise<void> {
  const consent = page.url();
  const boxes = page.locator('input[name="scopes"]');
  expect(await boxes.count()).toBeGreaterThan(0);
  for (const box of await boxes.all()) await box.uncheck();
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === consent),
    page.waitForLoadState('load'),
    page.click('button[value="allow"]'),
  ]);
  expect(answer.status()).toBe(422); // a refused form, drawn again (docs/console.md, Forms)
  expect(page.url()).toBe(consent);
  expect(await page.locator('[role="alert"]').innerText()).toBe(
    'Nothing was allowed: no scope was ticked. Tick what the app may read and press Allow, or press Refuse to refuse.',
  );
  expect(callbacks.length).toBe(callbacksBefore);
  expect(await boxes.evaluateAll((inputs) => inputs.every((i) => (i as any).checked))).toBe(true);
}

function a2aClient(token: string) {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory()],
      preferredTransports: ['JSONRPC'],
      cardResolver: new DefaultAgentCardResolver(),
    }),
  );
  return {
    async me() {
      const client = await factory.createFromUrl(base);
      const result = await client.sendMessage(
        SendMessageRequest.fromJSON({
          message: {
            messageId: crypto.randomUUID(),
            role: 'ROLE_USER',
            parts: [{ data: { skill: 'me', input: {} }, mediaType: 'application/json' }],
          },
        }),
        { serviceParameters: { Authorization: `Bearer ${token}` } },
      );
      return JSON.parse(JSON.stringify(result));
    },
  };
}

describe('the MCP SDK client’s own OAuth flow, in a browser', () => {
  const provider = new BrowserProvider();
  let token = '';

  it('discovers, registers, sends the owner through sign-in and consent, and calls tools with the token', async () => {
    const first = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
    const client = new Client({ name: 'oauth-test', version: '1.0.0' });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const url = provider.authorizationUrl;
    if (!url) throw new Error('the client was not sent to authorize');
    expect(url.origin + url.pathname).toBe(`${base}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${base}/mcp`);

    const shown = await signInAndAllow(url, { untickedFirst: true });
    expect(shown.clientName).toBe('Claudia Desktop (test)');
    expect(shown.redirectHost).toBe(new URL(callbackUrl).host);
    expect(shown.origin).toContain('dynamic registration');
    const back = callbacks.at(-1);
    expect(back?.get('iss')).toBe(base);
    await first.finishAuth(back?.get('code') ?? '');
    token = provider.saved?.access_token ?? '';
    expect(token).not.toBe('');

    const connected = new Client({ name: 'oauth-test', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
    const { tools } = await connected.listTools();
    expect(tools.map((tool) => tool.name)).toContain('indicators_stats');
    const stats = await connected.callTool({ name: 'indicators_stats', arguments: { key: 'population' } });
    expect(stats.isError).toBeFalsy();
    expect((stats.structuredContent as { count: number }).count).toBeGreaterThan(300);
    await connected.close();
  }, 60_000);

  it('uses the same token on /a2a through the A2A SDK client', async () => {
    const result = await a2aClient(token).me();
    expect(JSON.stringify(result)).toContain(`"account_id":${t.accounts.premium}`);
  });

  it('is disconnected by the owner in the console: both channels refuse the token from the next request', async () => {
    await page.goto(`${base}/console/apps`);
    expect(await page.textContent('main')).toContain('Claudia Desktop (test)');
    await Promise.all([page.waitForURL(/\/disconnect$/), page.click('text=Disconnect…')]);
    // Post/Redirect/Get: the answer is the list, saying what was done, its address without the notice's query.
    await Promise.all([page.waitForURL(/\/console\/apps(\?done=.*)?$/), page.click('button.danger')]);
    expect(await page.textContent('main')).toContain('Disconnected Claudia Desktop (test): its tokens no longer work.');
    expect(new URL(page.url()).search).toBe('');

    const mcp = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain('error="invalid_token"');
    await expect(a2aClient(token).me()).rejects.toThrow();
  }, 30_000);
});

function metadataDocument() {
  return {
    client_id: `http://127.0.0.1:${(callback.address() as AddressInfo).port}/client.json`,
    client_name: 'Metadata Document Client (test)',
    redirect_uris: [callbackUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

describe('a client known by its metadata document', () => {
  it('is read from its URL, shown as such on the consent page, and gets a working token', async () => {
    const { client_id: clientId } = metadataDocument();
    const { verifier, challenge } = pkce();
    const url = new URL(`${base}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callbackUrl,
      scope: 'indicators:read',
      state: 'cimd-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${base}/mcp`,
    })) {
      url.searchParams.set(k, v);
    }
    await page.goto(url.href);
    expect(await page.textContent('#client-name')).toBe('Metadata Document Client (test)');
    expect(await page.textContent('#client-origin')).toContain('metadata document');
    await Promise.all([page.waitForURL((u) => u.href.startsWith(callbackUrl)), page.click('button[value="allow"]')]);
    const back = callbacks.at(-1);
    expect(back?.get('state')).toBe('cimd-state');
    const response = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back?.get('code') ?? '',
        code_verifier: verifier,
        redirect_uri: callbackUrl,
        client_id: clientId,
        resource: `${base}/mcp`,
      }),
    });
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as { access_token: string; scope: string };
    expect(tokens.scope).toBe('indicators:read');
    const me = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'me', arguments: {} } }),
    });
    expect(me.status).toBe(200);
  }, 30_000);
});
