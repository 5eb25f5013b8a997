/**
 * The console's usage page splits the month's total by the way each request came in (docs/console.md, "Usage per
 * day and channel"): REST (bulk files included), A2A, MCP and the explorer. Every request the total counts is in
 * one part, so after traffic on every channel the parts sum to the total `GET /v1/me` reports.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyPeriod } from '../src/access/counters.js';
import type { AnyOperation } from '../src/core/operation.js';
import { CHANNELS, type Channel, dataRequest } from './helpers/channels.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let c: ConsoleClient;

beforeAll(async () => {
  t = await startTestApp();
  const owner = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@premium.example', role: 'owner' });
  c = new ConsoleClient(t);
  expect((await c.signIn(owner.email, owner.password)).status).toBe(303);
});

afterAll(async () => {
  await t?.close();
});

/** The figures of the usage page: the total, and each part of the split that it shows, by its element id. */
async function usagePage(client = c): Promise<{ total: number; parts: Record<string, number> }> {
  const page = await client.get('/console/usage');
  expect(page.status).toBe(200);
  const figure = (id: string) =>
    Number(new RegExp(`id="${id}">([\\d\u00a0]+)<`).exec(page.body)?.[1].replace(/\u00a0/g, '') ?? Number.NaN);
  const parts: Record<string, number> = {};
  for (const [, id] of page.body.matchAll(/id="channel-([a-z0-9]+)"/g)) parts[id] = figure(`channel-${id}`);
  return { total: figure('used'), parts };
}

async function send(channel: Channel): Promise<void> {
  const r = dataRequest(channel, t.keys.premium);
  const res = await t.app.http.inject({
    method: r.method,
    url: r.url,
    headers: r.headers,
    ...(r.body && { payload: r.body }),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.body).not.toContain('"error"');
}

describe('the usage split', () => {
  it('counts every charged request in one part, so the parts sum to the total /v1/me reports', async () => {
    const before = await usagePage();
    const sent: Record<string, number> = { rest: 0, a2a: 0, mcp: 0, explorer: 0 };
    for (const channel of CHANNELS) {
      for (let i = 0; i < 2; i++) await send(channel);
      sent[channel] += 2;
    }
    // A bulk file is a REST request too.
    expect((await t.get('/v1/bulk/municipalities')).status).toBe(200);
    sent.rest++;
    // The explorer's data reads, JSON and CSV, under the session: a picture's requests, charged like the API's.
    for (const path of ['/explore/api/v1/indicators/population', '/explore/csv/v1/municipalities?limit=5']) {
      const res = await c.get(path);
      expect(res.status, res.body).toBe(200);
      sent.explorer++;
    }

    const after = await usagePage();
    const me = (await t.get('/v1/me')).json as { usage: { requests_this_month: number } };
    expect(after.total).toBe(me.usage.requests_this_month);
    expect(after.total - before.total).toBe(Object.values(sent).reduce((a, b) => a + b, 0));
    for (const [part, n] of Object.entries(sent)) expect(after.parts[part] - (before.parts[part] ?? 0), part).toBe(n);
    expect(Object.values(after.parts).reduce((a, b) => a + b, 0)).toBe(after.total);
    expect(after.parts.unsplit).toBeUndefined();
  });

  it('refuses, uncharged, a charged call that names no channel to count it under', async () => {
    const before = (await usagePage()).total;
    const admission = await t.app.core.admit({ authorization: `Bearer ${t.keys.premium}`, clientAddress: '127.0.0.1' });
    const operation = t.app.registry.get('indicators_get') as AnyOperation;
    await expect(
      t.app.core.execute({ admission, operation, input: { key: 'population' }, encoding: 'json' }),
    ).rejects.toThrow(/channel/);
    expect((await usagePage()).total).toBe(before);
  });

  const chargesBeforeSplit =
    'shows requests charged before the split began as a part of their own, so the parts still sum to the total';
  it(chargesBeforeSplit, async () => {
    // The month's usage as the store holds it from before this version split it (no daily counts for it).
    const period = monthlyPeriod(new Date(t.clock.now)).key;
    await t.store.addUsage([{ accountId: t.accounts.beta, period, count: 7 }]);
    const bruno = await consoleUser(t, { accountId: t.accounts.beta, email: 'bruno@beta.example', role: 'owner' });
    const b = new ConsoleClient(t);
    expect((await b.signIn(bruno.email, bruno.password)).status).toBe(303);
    const page = await usagePage(b);
    expect(page.total).toBe(7);
    expect(page.parts).toEqual({ rest: 0, a2a: 0, mcp: 0, explorer: 0, unsplit: 7 });
  });
});

describe('the usage page’s figures', () => {
  it('writes counts in the service’s number form, grouped by spaces; the chart’s top figure has room', async () => {
    const page = await c.get('/console/usage');
    // The premium plan's 100 000 requests a month: never 100,000, which beside 0,85 reads as a hundred.
    expect(page.body).toContain('of 100\u00a0000 requests');
    expect(page.body).toContain('100\u00a0000 a month');
    expect(page.body).not.toMatch(/\d,\d{3}\b/);
    // On a phone the chart's figures are 22 user units high: the top one's baseline sits at least that far down.
    const baselines = [...page.body.matchAll(/<text x="[\d.]+" y="([\d.]+)" text-anchor="end">/g)].map((m) =>
      Number(m[1]),
    );
    expect(baselines.length).toBeGreaterThan(0);
    expect(Math.min(...baselines)).toBeGreaterThanOrEqual(22);
  });
});
