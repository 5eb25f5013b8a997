/**
 * The authorization server and the protected resource (docs/oauth.md), in-process: the metadata documents as a
 * client reads them (RFC 8414, OpenID discovery, RFC 9728 at the three addresses, JWKS), a full authorization code
 * flow with PKCE to a token that works on /mcp and /a2a, the challenges (401, step-up 403), and every refusal the
 * docs list: plain or missing PKCE, wrong verifier, reused code, wrong redirect, another resource, expired token,
 * reused rotated refresh token, a metadata document on a private address, a token in the query string.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEPLOYMENTS, ensureDemoAgents } from '../src/agents/demo/demo-agents.js';
import { SCOPES } from '../src/lib/domains.js';
import { REGISTRATIONS_PER_MINUTE } from '../src/oauth/routes.js';
import {
  authorize,
  connectedClient,
  consent,
  pkce,
  REDIRECT,
  RESOURCE,
  register,
  tokenRequest,
} from './helpers/oauth-flow.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

async function mcp(token: string | null, name: string, args: Record<string, unknown> = {}, url = '/mcp') {
  const res = await t.app.http.inject({
    method: 'POST',
    url,
    headers: { ...JSON_HEADERS, ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: res.statusCode, challenge: res.headers['www-authenticate'], json: JSON.parse(res.body) };
}

async function a2a(token: string | null, skill: string, input: Record<string, unknown> = {}) {
  const res = await t.app.http.inject({
    method: 'POST',
    url: '/a2a',
    headers: { ...JSON_HEADERS, 'a2a-version': '1.0', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    payload: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: 'm-1',
          role: 'ROLE_USER',
          parts: [{ data: { skill, input }, mediaType: 'application/json' }],
        },
      },
    }),
  });
  return { status: res.statusCode, challenge: res.headers['www-authenticate'], json: JSON.parse(res.body) };
}

const MCP_METADATA = `${BASE_URL}/.well-known/oauth-protected-resource/mcp`;
const A2A_METADATA = `${BASE_URL}/.well-known/oauth-protected-resource/a2a`;

describe('metadata', () => {
  it('publishes RFC 8414 metadata at the root with the issuer exactly the base URL', async () => {
    const res = await t.get('/.well-known/oauth-authorization-server', { key: null });
    expect(res.status).toBe(200);
    const m = res.json;
    expect(m.issuer).toBe(BASE_URL);
    expect(m.authorization_endpoint).toBe(`${BASE_URL}/oauth/authorize`);
    expect(m.token_endpoint).toBe(`${BASE_URL}/oauth/token`);
    expect(m.registration_endpoint).toBe(`${BASE_URL}/oauth/register`);
    expect(m.revocation_endpoint).toBe(`${BASE_URL}/oauth/revoke`);
    expect(m.jwks_uri).toBe(`${BASE_URL}/oauth/jwks`);
    expect(m.code_challenge_methods_supported).toEqual(['S256']);
    expect(m.token_endpoint_auth_methods_supported).toContain('none');
    expect(m.client_id_metadata_document_supported).toBe(true);
    expect(m.authorization_response_iss_parameter_supported).toBe(true);
    expect(m.response_types_supported).toEqual(['code']);
    expect(m.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(m.scopes_supported).toEqual(expect.arrayContaining(SCOPES));
    // Every address it names is under the issuer (a client behind another Host header sees the same).
    const other = await t.app.http.inject({
      method: 'GET',
      url: '/.well-known/oauth-authorization-server',
      headers: { host: 'evil.example' },
    });
    expect(JSON.parse(other.body).token_endpoint).toBe(`${BASE_URL}/oauth/token`);
  });

  it('publishes the same issuer in OpenID discovery, and a JWKS of public keys only', async () => {
    const oidc = (await t.get('/.well-known/openid-configuration', { key: null })).json;
    expect(oidc.issuer).toBe(BASE_URL);
    expect(oidc.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = (await t.get('/oauth/jwks', { key: null })).json;
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      expect(key.kid).toBeTruthy();
      expect(key.d).toBeUndefined();
    }
  });

  it('publishes Protected Resource Metadata (RFC 9728) at the MCP path, the A2A path and the root', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/a2a',
      '/.well-known/oauth-protected-resource',
    ]) {
      const res = await t.get(path, { key: null });
      expect(res.status, path).toBe(200);
      expect(res.json.resource).toBe(`${BASE_URL}/mcp`);
      expect(res.json.authorization_servers).toEqual([BASE_URL]);
      expect(res.json.scopes_supported).toEqual(SCOPES);
      expect(res.json.bearer_methods_supported).toEqual(['header']);
    }
  });

  it('names the authorization server on both agent cards, beside the API-key schemes', async () => {
    const v1 = (await t.get('/.well-known/agent-card.json', { key: null, headers: { 'a2a-version': '1.0' } })).json;
    const flow = v1.securitySchemes.oauth2.oauth2SecurityScheme;
    expect(flow.oauth2MetadataUrl).toBe(`${BASE_URL}/.well-known/oauth-authorization-server`);
    expect(flow.flows.authorizationCode).toMatchObject({
      authorizationUrl: `${BASE_URL}/oauth/authorize`,
      tokenUrl: `${BASE_URL}/oauth/token`,
      pkceRequired: true,
    });
    expect(Object.keys(flow.flows.authorizationCode.scopes)).toEqual(SCOPES);
    expect(v1.securitySchemes.bearer).toBeDefined();
    expect(v1.securityRequirements).toContainEqual({ schemes: { oauth2: { list: [] } } });
    expect(v1.securityRequirements).toContainEqual({ schemes: { bearer: { list: [] } } });
    const v03 = (await t.get('/.well-known/agent-card.json', { key: null })).json;
    expect(v03.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { authorizationCode: { tokenUrl: `${BASE_URL}/oauth/token` } },
    });
    expect(v03.security).toContainEqual({ oauth2: [] });
    // docs/a2a.md says what the cards offer: each of their schemes, OAuth included.
    const doc = readFileSync(new URL('../docs/a2a.md', import.meta.url), 'utf8');
    for (const scheme of Object.keys(v1.securitySchemes)) expect(doc, scheme).toContain(`"${scheme}"`);
    expect(doc).toMatch(/both cards list an `oauth2` scheme/);
    expect(doc).not.toMatch(/OAuth is not offered/);
  });
});

describe('a token from the authorization code flow', () => {
  it('comes back with iss and state, and works on /mcp and on /a2a for the account that consented', async () => {
    const { tokens, redirect } = await connectedClient(t, t.accounts.premium, ['indicators:read', 'signals:read']);
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT);
    expect(redirect.searchParams.get('iss')).toBe(BASE_URL);
    expect(redirect.searchParams.get('state')).toBe('state-123');
    expect(tokens.token_type).toBe('Bearer');
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope.split(' ').sort()).toEqual(['indicators:read', 'signals:read']);

    const me = await mcp(tokens.access_token, 'me');
    expect(me.status).toBe(200);
    expect(me.json.result.structuredContent).toMatchObject({ account_id: t.accounts.premium, plan_code: 'premium' });
    expect(me.json.result.structuredContent.scopes.sort()).toEqual(['indicators:read', 'signals:read']);

    const onA2a = await a2a(tokens.access_token, 'me');
    expect(onA2a.status).toBe(200);
    expect(onA2a.json.result.message.parts[0].data.account_id).toBe(t.accounts.premium);
  });

  it('lists only the tools its scopes allow, and asks for step-up (403 insufficient_scope) on the others', async () => {
    const { tokens } = await connectedClient(t, t.accounts.premium, ['indicators:read']);
    const list = await t.app.http.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...JSON_HEADERS, authorization: `Bearer ${tokens.access_token}` },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const names = JSON.parse(list.body).result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain('indicators_list');
    expect(names).not.toContain('signals_list');

    const onMcp = await mcp(tokens.access_token, 'signals_list');
    expect(onMcp.status).toBe(403);
    expect(onMcp.challenge).toContain(`resource_metadata="${MCP_METADATA}"`);
    expect(onMcp.challenge).toContain('error="insufficient_scope"');
    expect(onMcp.challenge).toContain('scope="indicators:read signals:read"');
    const onA2a = await a2a(tokens.access_token, 'signals_list');
    expect(onA2a.status).toBe(403);
    expect(onA2a.challenge).toContain(`resource_metadata="${A2A_METADATA}"`);
    expect(onA2a.challenge).toContain('error="insufficient_scope"');
  });

  it('acts for the account: its plan, its per-minute limit and its monthly usage, as its keys do', async () => {
    const { tokens } = await connectedClient(t, t.accounts.premium, ['indicators:read']);
    const before = (await mcp(tokens.access_token, 'me')).json.result.structuredContent.usage.requests_this_month;
    await mcp(tokens.access_token, 'indicators_list', {});
    const viaKey = (await t.get('/v1/me')).json.usage.requests_this_month;
    expect(viaKey).toBe(before + 1);
  });
});

describe('the resource refuses', () => {
  it('a request without credentials: 401 naming the metadata, with no error code', async () => {
    const onMcp = await mcp(null, 'me');
    expect(onMcp.status).toBe(401);
    expect(onMcp.challenge).toBe(`Bearer resource_metadata="${MCP_METADATA}"`);
    const onA2a = await a2a(null, 'me');
    expect(onA2a.status).toBe(401);
    expect(onA2a.challenge).toBe(`Bearer resource_metadata="${A2A_METADATA}"`);
  });

  it('an unknown token: 401 invalid_token; API keys keep working beside tokens', async () => {
    const bad = await mcp('not-a-token-of-ours-at-all-0123456789abcd', 'me');
    expect(bad.status).toBe(401);
    expect(bad.challenge).toBe(`Bearer resource_metadata="${MCP_METADATA}", error="invalid_token"`);
    expect((await mcp(t.keys.premium, 'me')).status).toBe(200);
    expect((await a2a(t.keys.premium, 'me')).status).toBe(200);
  });

  it('a token in the query string, even a good one', async () => {
    const { tokens } = await connectedClient(t, t.accounts.premium);
    const res = await mcp(null, 'me', {}, `/mcp?access_token=${tokens.access_token}`);
    expect(res.status).toBe(401);
    expect(res.challenge).toContain('error="invalid_token"');
  });

  const tokenInApiKeyHeader =
    'a token in X-API-Key, even a good one, on /mcp, /a2a and a company agent: tokens travel only as Bearer';
  it(tokenInApiKeyHeader, async () => {
    const { tokens } = await connectedClient(t, t.accounts.premium);
    await ensureDemoAgents(t.store, new Date(t.clock.now));
    const rpc = {
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [] } },
    };
    for (const url of [
      '/mcp',
      '/a2a',
      `/agents/${DEMO_DEPLOYMENTS[0].slug}/a2a`,
      `/agents/${DEMO_DEPLOYMENTS[0].slug}/mcp`,
    ]) {
      const res = await t.app.http.inject({
        method: 'POST',
        url,
        headers: { ...JSON_HEADERS, 'a2a-version': '1.0', 'x-api-key': tokens.access_token },
        payload: JSON.stringify(url.endsWith('mcp') ? { jsonrpc: '2.0', id: 1, method: 'tools/list' } : rpc),
      });
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['www-authenticate'], url).toMatch(/^Bearer/);
      expect(JSON.parse(res.body).error.code, url).toBe(-32000);
    }
    const onMcp = await t.app.http.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...JSON_HEADERS, 'x-api-key': tokens.access_token },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(onMcp.headers['www-authenticate']).toBe(`Bearer resource_metadata="${MCP_METADATA}", error="invalid_token"`);
    expect(JSON.parse(onMcp.body).error.data.detail).toMatch(/Authorization: Bearer/);
    // The same token as Bearer still works, and an API key in X-API-Key too.
    expect((await mcp(tokens.access_token, 'me')).status).toBe(200);
    const keyInHeader = await t.app.http.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...JSON_HEADERS, 'x-api-key': t.keys.premium },
      payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(keyInHeader.statusCode).toBe(200);
  });

  it('a token on the REST API, which takes API keys only', async () => {
    const { tokens } = await connectedClient(t, t.accounts.premium);
    expect((await t.get('/v1/me', { key: tokens.access_token })).status).toBe(401);
  });

  it('a token issued for another resource, on /mcp and on /a2a', async () => {
    const { provider } = t.app.oauth;
    const { tokens } = await connectedClient(t, t.accounts.premium);
    const mine = await provider.AccessToken.find(tokens.access_token);
    if (!mine) throw new Error('token not found');
    const other = new provider.AccessToken({
      accountId: String(t.accounts.premium),
      clientId: mine.clientId,
      grantId: mine.grantId,
      scope: 'indicators:read',
      aud: 'https://elsewhere.example/mcp',
    } as never);
    const value = await other.save();
    expect((await mcp(value, 'me')).status).toBe(401);
    expect((await a2a(value, 'me')).status).toBe(401);
  });

  it('a token revoked at the revocation endpoint, at once', async () => {
    const { client, tokens } = await connectedClient(t, t.accounts.premium);
    expect((await mcp(tokens.access_token, 'me')).status).toBe(200);
    const res = await t.app.http.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: tokens.refresh_token, client_id: client.client_id }).toString(),
    });
    expect(res.statusCode).toBe(200);
    // Revoking the refresh token ends the grant: its access tokens go with it.
    expect((await mcp(tokens.access_token, 'me')).status).toBe(401);
  });
});

describe('the authorization server refuses', () => {
  it('an authorization request with plain PKCE, or none', async () => {
    const client = (await register(t)).json;
    const plain = await authorize(t, { clientId: client.client_id, challenge: 'x'.repeat(43), method: 'plain' });
    expect(new URL(plain.location).searchParams.get('error')).toBe('invalid_request');
    const none = await authorize(t, { clientId: client.client_id });
    expect(new URL(none.location).searchParams.get('error')).toBe('invalid_request');
  });

  it('a wrong verifier, and a code used twice', async () => {
    const client = (await register(t)).json;
    const { verifier, challenge } = pkce();
    const auth = await authorize(t, { clientId: client.client_id, challenge, method: 'S256' });
    const code = (await consent(t, auth, t.accounts.premium, ['indicators:read'])).searchParams.get('code') ?? '';
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.client_id,
      resource: RESOURCE,
    };
    const wrong = await tokenRequest(t, { ...form, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('invalid_grant');
    // A failed attempt consumed nothing the right verifier needs? No: a code is single use whatever happened.
    const right = await tokenRequest(t, { ...form, code_verifier: verifier });
    const again = await tokenRequest(t, { ...form, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe('invalid_grant');
    if (right.status === 200) expect((await mcp(right.json.access_token, 'me')).status).toBe(401);
  });

  it('a redirect URI not registered (no redirect), and a different one at the token endpoint', async () => {
    const client = (await register(t)).json;
    const { verifier, challenge } = pkce();
    const bad = await authorize(t, {
      clientId: client.client_id,
      challenge,
      method: 'S256',
      redirectUri: 'https://attacker.example/cb',
    });
    expect(bad.status).toBe(400);
    expect(bad.location).toBe('');
    const auth = await authorize(t, { clientId: client.client_id, challenge, method: 'S256' });
    const code = (await consent(t, auth, t.accounts.premium, ['indicators:read'])).searchParams.get('code') ?? '';
    const res = await tokenRequest(t, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: 'http://127.0.0.1:53682/other',
      client_id: client.client_id,
      resource: RESOURCE,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('invalid_grant');
  });

  it('accepts a loopback redirect on any port (RFC 8252), but no plain-HTTP redirect elsewhere', async () => {
    const client = (await register(t)).json;
    const auth = await authorize(t, {
      clientId: client.client_id,
      challenge: pkce().challenge,
      method: 'S256',
      redirectUri: 'http://127.0.0.1:40001/callback',
    });
    expect(auth.uid).toBeTruthy();
    const web = await register(t, { redirect_uris: ['http://app.example/callback'] });
    expect(web.status).toBe(400);
  });

  it('each bad redirect URI with its own reason, naming it (invalid_redirect_uri)', async () => {
    const refusals: [string, RegExp][] = [
      ['http://app.example/callback', /plain http on app\.example: use https, or http only on a loopback address/],
      ['http://127.0.0.2/callback', /plain http on 127\.0\.0\.2: use https/],
      ['https://app.example/callback#done', /has a fragment/],
      ['/callback', /is not an absolute URI/],
      ['app.example/callback', /is not an absolute URI/],
      ['com.example.app:/callback', /uses the com\.example\.app scheme: use https/],
      ['ftp://app.example/callback', /uses the ftp scheme/],
    ];
    for (const [uri, reason] of refusals) {
      const res = await register(t, { redirect_uris: ['https://app.example/fine', uri] });
      expect(res.status, uri).toBe(400);
      expect(res.json.error, uri).toBe('invalid_redirect_uri');
      expect(res.json.error_description, uri).toContain(`redirect_uris: ${JSON.stringify(uri)}`);
      expect(res.json.error_description, uri).toMatch(reason);
      expect(res.json.error_description, uri).not.toMatch(/did not match/);
    }
    expect((await register(t, { redirect_uris: ['http://[::1]:4000/cb', 'http://localhost/cb'] })).status).toBe(201);
  });

  it('a resource other than the MCP endpoint', async () => {
    const client = (await register(t)).json;
    const auth = await authorize(t, {
      clientId: client.client_id,
      challenge: pkce().challenge,
      method: 'S256',
      resource: 'https://elsewhere.example/mcp',
    });
    expect(new URL(auth.location).searchParams.get('error')).toBe('invalid_target');
  });

  it('a rotated refresh token used again: the grant is revoked, the new tokens too', async () => {
    const { client, tokens } = await connectedClient(t, t.accounts.premium);
    const refresh = (token: string) =>
      tokenRequest(t, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: client.client_id,
        resource: RESOURCE,
      });
    const rotated = await refresh(tokens.refresh_token);
    expect(rotated.status).toBe(200);
    expect(rotated.json.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcp(rotated.json.access_token, 'me')).status).toBe(200);
    const reused = await refresh(tokens.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.json.error).toBe('invalid_grant');
    expect((await refresh(rotated.json.refresh_token)).status).toBe(400);
    expect((await mcp(rotated.json.access_token, 'me')).status).toBe(401);
  });

  it('a metadata document on a private or loopback address, before any connection', async () => {
    for (const clientId of [
      'https://10.0.0.1/client.json',
      'https://127.0.0.1/client.json',
      'https://localhost/client.json',
      'https://[::1]/c.json',
    ]) {
      const auth = await authorize(t, { clientId, challenge: pkce().challenge, method: 'S256' });
      expect(auth.status, clientId).toBe(400);
      expect(auth.uid).toBeUndefined();
    }
  });

  it('registrations beyond the limit per address', async () => {
    let last = 0;
    for (let i = 0; i <= REGISTRATIONS_PER_MINUTE; i++) last = (await register(t, {}, '203.0.113.9')).status;
    expect(last).toBe(429);
  });
});

// Last: it moves the app's clock past the token's lifetime, for good.
describe('after its lifetime', () => {
  it('an access token is refused', async () => {
    const { tokens } = await connectedClient(t, t.accounts.premium);
    expect((await mcp(tokens.access_token, 'me')).status).toBe(200);
    // The app's clock stands still while the tests run; the token lives an hour from the real time it was issued.
    t.clock.advance(2 * 3600_000);
    const res = await mcp(tokens.access_token, 'me');
    expect(res.status).toBe(401);
    expect(res.challenge).toContain('error="invalid_token"');
  });
});
