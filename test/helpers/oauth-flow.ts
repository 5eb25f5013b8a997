/**
 * An OAuth client's steps against the app in-process (`inject`), for tests of the authorization server: PKCE,
 * registration, the authorization request, consent (as the consent page ends it), the token requests.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Scope } from '../../src/lib/domains.js';
import { approveByUid } from '../../src/oauth/consent.js';
import { BASE_URL, type TestApp } from './test-app.js';

export const RESOURCE = `${BASE_URL}/mcp`;
export const REDIRECT = 'http://127.0.0.1:53682/callback';

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

let registrations = 0;

/**
 * A Dynamic Client Registration. Registrations are limited per client address: each comes from an address of its
 * own (in-process, nothing is sent) unless the test names one.
 */
export async function register(
  t: TestApp,
  metadata: Record<string, unknown> = {},
  remoteAddress = `198.51.100.${++registrations % 250}`,
): Promise<{ status: number; json: any }> {
  const res = await t.app.http.inject({
    method: 'POST',
    url: '/oauth/register',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({
      client_name: 'Test client',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  });
  return { status: res.statusCode, json: JSON.parse(res.body) };
}

/** Cookies the server set, as one Cookie header. */
class Jar {
  readonly #cookies = new Map<string, string>();
  take(setCookie: string | string[] | number | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [String(setCookie)]) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.#cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface AuthorizeParams {
  clientId: string;
  redirectUri?: string;
  challenge?: string;
  method?: string;
  resource?: string | null;
  scope?: string;
  state?: string;
}

export interface Authorization {
  status: number;
  location: string;
  uid: string | undefined;
  jar: Jar;
}

export async function authorize(t: TestApp, p: AuthorizeParams): Promise<Authorization> {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: p.clientId,
    redirect_uri: p.redirectUri ?? REDIRECT,
    state: p.state ?? 'state-123',
    scope: p.scope ?? 'indicators:read signals:read',
  });
  if (p.challenge !== undefined) query.set('code_challenge', p.challenge);
  if (p.method !== undefined) query.set('code_challenge_method', p.method);
  if (p.resource !== null) query.set('resource', p.resource ?? RESOURCE);
  const res = await t.app.http.inject({ method: 'GET', url: `/oauth/authorize?${query}` });
  const jar = new Jar();
  jar.take(res.headers['set-cookie']);
  const location = String(res.headers.location ?? '');
  const uid = /\/console\/connect\/([^/?#]+)/.exec(location)?.[1];
  return { status: res.statusCode, location, uid, jar };
}

/** Consent as the page gives it, then the browser's return to the authorization endpoint: the client's redirect. */
export async function consent(t: TestApp, auth: Authorization, accountId: number, scopes: Scope[]): Promise<URL> {
  if (!auth.uid) throw new Error(`no interaction: ${auth.status} ${auth.location}`);
  const next = await approveByUid(t.app.oauth.provider, auth.uid, accountId, scopes);
  const res = await t.app.http.inject({
    method: 'GET',
    url: new URL(next, BASE_URL).pathname,
    headers: { cookie: auth.jar.header() },
  });
  auth.jar.take(res.headers['set-cookie']);
  if (!res.headers.location) throw new Error(`no redirect from the resume: ${res.statusCode} ${res.body}`);
  return new URL(String(res.headers.location), BASE_URL);
}

export async function tokenRequest(
  t: TestApp,
  form: Record<string, string>,
): Promise<{ status: number; json: any; headers: any }> {
  const res = await t.app.http.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });
  return { status: res.statusCode, json: JSON.parse(res.body), headers: res.headers };
}

/** A client registered, authorized for `scopes` by `accountId`, and its first tokens. */
export async function connectedClient(
  t: TestApp,
  accountId: number,
  scopes: Scope[] = ['indicators:read', 'signals:read'],
) {
  const client = (await register(t)).json;
  const { verifier, challenge } = pkce();
  const auth = await authorize(t, { clientId: client.client_id, challenge, method: 'S256', scope: scopes.join(' ') });
  const redirect = await consent(t, auth, accountId, scopes);
  const code = redirect.searchParams.get('code') ?? '';
  const tokens = await tokenRequest(t, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    client_id: client.client_id,
    resource: RESOURCE,
  });
  return { client, tokens: tokens.json, redirect };
}
