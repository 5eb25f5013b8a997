/**
 * The log (docs/deploy.md, Logs): one line per request at `info`, structured — request id, channel, operation,
 * account, status, duration — and no secret in any line, wherever the client put it: an API key in the query
 * string under any parameter name, percent-encoded, in the headers, a bearer or OAuth token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, dataRequest } from './helpers/channels.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

describe('request log', () => {
  let t: TestApp;
  const lines: string[] = [];
  const logged = () => lines.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line));

  beforeAll(async () => {
    t = await startTestApp({ logTo: { write: (line) => lines.push(line) } });
  });
  afterAll(() => t?.close());

  async function send(request: {
    method: 'GET' | 'POST';
    url: string;
    headers: Record<string, string>;
    body?: string;
  }) {
    lines.length = 0;
    const res = await t.app.http.inject({
      method: request.method,
      url: request.url,
      headers: request.headers,
      payload: request.body,
    });
    return { res, entries: logged() };
  }

  const oneInfoLinePerRequest =
    'writes one info line per request on every channel, with its request id, channel, operation, account, ' +
    'status and duration';
  it(oneInfoLinePerRequest, async () => {
    for (const channel of CHANNELS) {
      const { res, entries } = await send(dataRequest(channel, t.keys.premium));
      expect(res.statusCode).toBe(200);
      expect(entries, channel).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        level: 30,
        request_id: res.headers['request-id'],
        channel,
        operation: 'indicators_get',
        account_id: t.accounts.premium,
        status: 200,
      });
      expect(entries[0].duration_ms).toBeGreaterThanOrEqual(0);
    }
  });

  it('a refused request is one line too, with its status and no account', async () => {
    const { res, entries } = await send({ method: 'GET', url: '/v1/indicators/population', headers: {} });
    expect(res.statusCode).toBe(401);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 30, channel: 'rest', status: 401, path: '/v1/indicators/population' });
    expect(entries[0].account_id).toBeUndefined();
  });

  it('never logs a secret, whatever the parameter or header that carries it', async () => {
    const secret = t.keys.premium;
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhY2N0XzEifQ.c2lnbmF0dXJl';
    const body = secret.slice('sk_live_'.length);
    const requests = [
      `/v1/indicators/population?api_key=${secret}`,
      `/v1/indicators/population?anything=${secret}`,
      `/v1/indicators/population?x=${encodeURIComponent(secret).replace(/_/g, '%5F')}`,
      `/v1/no-such-route?key=${secret}&limit=2`,
      `/v1/indicators/population?access_token=${jwt}`,
      `/v1/indicators/population?token=opaque-oauth-token-123`,
      `/v1/indicators/${secret}`,
      `/mcp?api_key=${secret}`,
    ];
    const seen: string[] = [];
    for (const url of requests) {
      await send({ method: 'GET', url, headers: { authorization: `Bearer ${secret}` } });
      seen.push(...lines);
    }
    await send({ method: 'GET', url: '/v1/indicators/population', headers: { 'x-api-key': secret } });
    seen.push(...lines);
    await send({ method: 'GET', url: '/v1/indicators/population', headers: { authorization: `Bearer ${jwt}` } });
    seen.push(...lines);
    const text = seen.join('');
    expect(seen.length).toBeGreaterThanOrEqual(requests.length + 2);
    expect(text).not.toContain(body);
    expect(text).not.toContain(jwt.split('.')[1]);
    expect(text).not.toContain('opaque-oauth-token-123');
    expect(text).toContain('[REDACTED]');
  });
});
