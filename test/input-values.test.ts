/**
 * The rules for input values (docs/api.md, Input values), the same on every channel: text without control
 * characters or lone surrogates, numbers and booleans read strictly from REST text, integers a JSON number holds
 * exactly. Each refusal is 422 `validation-error` naming the parameter on REST, A2A and MCP, and is not charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyPeriod } from '../src/access/counters.js';
import { buildCharged } from '../src/core/charge.js';
import type { AnyOperation } from '../src/core/operation.js';
import { expectValidation } from './helpers/expectations.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';
import { CHANNEL_NAMES, callOn } from './helpers/three-channels.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const op = (name: string): AnyOperation => t.app.registry.get(name) as AnyOperation;
const usage = () => t.app.counters.usage(t.accounts.premium, monthlyPeriod(new Date(t.clock.now)).key);

/** The same input on the three channels: each a 422 naming `field`, none charged. */
async function refusedEverywhere(name: string, input: Record<string, unknown>, field: string) {
  t.clock.advance(61_000);
  const before = await usage();
  for (const channel of CHANNEL_NAMES) {
    const answer = await callOn(t, channel, op(name), input, t.keys.premium);
    expect(answer, `${name} on ${channel}`).toBeDefined();
    expect(answer?.formProblem, `${channel}: ${answer?.body}`).toBeUndefined();
    expect(answer?.kind, `${name} ${JSON.stringify(input)} on ${channel}: ${answer?.body}`).toBe('validation-error');
    expect(answer?.fields, `${channel}: ${answer?.body}`).toContain(field);
  }
  expect(await usage(), `${name} ${JSON.stringify(input)} was charged`).toBe(before);
}

describe('text: control characters and lone surrogates', () => {
  const searches: [string, Record<string, unknown>][] = [
    ['procurement_contracts', {}],
    ['procurement_entities', {}],
    ['procurement_announcements', {}],
    ['procurement_ocds_releases', {}],
    ['municipalities_search', {}],
    ['indicators_list', {}],
    ['procurement_lookup_entities', {}],
  ];

  it.each(searches)('a NUL byte in q of %s is refused on every channel, naming q', async (name, base) => {
    await refusedEverywhere(name, { ...base, q: 'a\u0000b' }, 'q');
  });

  it.each([
    '\n',
    '\t',
    '\r',
    '\u001b',
    '\u007f',
    '\u0085',
  ])('the control character %j is refused, not stripped', async (char) => {
    await refusedEverywhere('municipalities_search', { q: `lis${char}boa` }, 'q');
  });

  it('a lone surrogate is refused on every channel, naming the field, and charges nothing', async () => {
    await refusedEverywhere('municipalities_search', { q: '\ud800' }, 'q');
    await refusedEverywhere('municipalities_search', { q: 'a\udc00b' }, 'q');
  });

  it('REST bytes that are not UTF-8 are refused like a lone surrogate, not searched as U+FFFD', async () => {
    for (const q of ['%FF', '%ED%A0%80', 'a%C3', '%C0%AF']) {
      expectValidation(await t.get(`/v1/municipalities?q=${q}`), 'q');
    }
  });

  it('a control character in one value of a repeated parameter is refused', async () => {
    expectValidation(await t.get('/v1/signals?municipality=lisboa&municipality=por%00to'), 'municipality');
  });

  it('well-formed text outside ASCII still works: accents, a surrogate pair, a percent sign', async () => {
    for (const q of ['%C3%89vora', '%F0%9F%98%80', '100%25', 'l+i']) {
      const res = await t.get(`/v1/municipalities?q=${q}`);
      expect(res.status, `${q}: ${res.body}`).toBe(200);
    }
    const evora = await t.get('/v1/municipalities?q=%C3%89vora');
    expect(evora.json.items.map((m: { name: string }) => m.name)).toContain('Évora');
  });
});

describe('numbers and booleans: one strict reading', () => {
  it.each([
    ['indicators_list', { limit: '0x10' }, 'limit'],
    ['indicators_list', { limit: '1e1' }, 'limit'],
    ['indicators_list', { limit: ' 5 ' }, 'limit'],
    ['indicators_list', { limit: '+5' }, 'limit'],
    ['indicators_list', { limit: '05' }, 'limit'],
    ['indicators_list', { limit: '5.0' }, 'limit'],
    ['indicators_list', { limit: '' }, 'limit'],
    ['signals_list', { min_confidence: ' ' }, 'min_confidence'],
    ['signals_list', { min_confidence: '' }, 'min_confidence'],
    ['signals_list', { min_confidence: '.5' }, 'min_confidence'],
    ['procurement_contracts', { min_amount: 'Infinity' }, 'min_amount'],
    ['procurement_contracts', { min_amount: 'NaN' }, 'min_amount'],
    ['procurement_contracts', { min_amount: '1_000' }, 'min_amount'],
    ['signals_get', { signal_id: '0x10' }, 'signal_id'],
    ['signals_get', { signal_id: '1e3' }, 'signal_id'],
    ['signals_get', { signal_id: '99999999999999999999' }, 'signal_id'],
    ['procurement_announcements', { open_only: '1' }, 'open_only'],
    ['procurement_announcements', { open_only: 'yes' }, 'open_only'],
    ['procurement_announcements', { open_only: 'TRUE' }, 'open_only'],
    ['procurement_announcements', { open_only: '' }, 'open_only'],
  ])('REST %s %j is 422 naming the parameter', async (name, input, field) => {
    const given = input as Record<string, string>;
    const url = `${op(name).rest.path.replace(/:([a-z_]+)/, (_, p) => String(given[p] ?? ''))}`;
    const query = Object.entries(input)
      .filter(([p]) => !op(name).rest.path.includes(`:${p}`))
      .map(([p, v]) => `${p}=${encodeURIComponent(v)}`)
      .join('&');
    t.clock.advance(61_000);
    expectValidation(await t.get(query ? `${url}?${query}` : url), field);
  });

  it('the same strings are refused as the wrong type on A2A and MCP: the same kind, the same field', async () => {
    await refusedEverywhere('indicators_list', { limit: '0x10' }, 'limit');
    await refusedEverywhere('signals_get', { signal_id: '1e3' }, 'signal_id');
    await refusedEverywhere('procurement_announcements', { open_only: 'yes' }, 'open_only');
  });

  it('an id beyond the integer range is 422 on every channel, never a lookup of a rounded id', async () => {
    await refusedEverywhere('signals_get', { signal_id: 1e20 }, 'signal_id');
    await refusedEverywhere('procurement_contract_get', { id: 2 ** 53 }, 'id');
    const res = await t.get('/v1/signals/99999999999999999999');
    expect(res.body).not.toContain('100000000000000000000');
  });

  it('plain decimal values are read as before', async () => {
    for (const url of [
      '/v1/indicators?limit=16',
      '/v1/signals?min_confidence=0.5',
      '/v1/signals?min_confidence=1',
      '/v1/procurement/contracts?min_amount=1000.50',
      '/v1/procurement/announcements?open_only=true',
      '/v1/procurement/announcements?open_only=false',
    ]) {
      t.clock.advance(61_000);
      const res = await t.get(url);
      expect(res.status, `${url}: ${res.body}`).toBe(200);
    }
    const page = await t.get('/v1/indicators?limit=2');
    expect(page.json.items).toHaveLength(2);
  });

  it('a scalar parameter given twice is refused; an array parameter may be given once or repeated', async () => {
    expectValidation(await t.get('/v1/indicators?limit=1&limit=2'), 'limit');
    expect((await t.get('/v1/signals?municipality=lisboa')).status).toBe(200);
    expect((await t.get('/v1/signals?municipality=lisboa&municipality=porto')).status).toBe(200);
    // One value or a list (a choice of schemas): once is the one value, repeated is the list.
    expect((await t.get('/v1/indicators/population/series?municipality=lisboa')).status).toBe(200);
    expect((await t.get('/v1/indicators/population/series?municipality=lisboa&municipality=porto')).status).toBe(200);
  });

  it('prototype names are unknown parameters, refused by name', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', 'hasOwnProperty']) {
      expectValidation(await t.get(`/v1/indicators?${name}=1`), name);
    }
  });
});

describe('dates and date-times: one calendar (docs/api.md, Dates)', () => {
  const impossibleInstants = [
    '2016-12-31T24:00:00Z',
    '2016-12-31T23:60:00Z',
    '2016-12-31T23:59:61Z',
    '2023-02-29T12:00:00Z',
    '2024-02-30T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2016-12-31T23:59:59+24:00',
  ];

  it.each(impossibleInstants)('since=%s is 422 naming since on every channel, uncharged', async (since) => {
    await refusedEverywhere('signals_list', { since }, 'since');
    await refusedEverywhere('alert_matches', { since }, 'since');
  });

  it('a leap second is read as the next second, on every channel: never a fault', async () => {
    for (const name of ['signals_list', 'signal_cases_list', 'alert_matches']) {
      if (!('since' in (op(name).input as { properties: object }).properties)) continue;
      for (const channel of CHANNEL_NAMES) {
        t.clock.advance(61_000);
        const answer = await callOn(t, channel, op(name), { since: '2016-12-31T23:59:60Z' }, t.keys.premium);
        expect(answer?.status, `${name} on ${channel}: ${answer?.body}`).toBe(200);
        expect(answer?.kind, `${name} on ${channel}: ${answer?.body}`).toBeUndefined();
      }
    }
    // The same list as from the next second, in an offset too; and a leap second inside the data's span.
    const { items } = (await t.get('/v1/signals?limit=1')).json;
    const seen = new Date(items[0].last_seen_at);
    const leap = (at: Date) => `${new Date(at.getTime() - 60_000).toISOString().slice(0, 17)}60Z`;
    const minute = new Date(Math.floor(seen.getTime() / 60_000) * 60_000);
    const ids = async (url: string) =>
      ((await t.get(url)).json.items as { signal_id: number }[]).map((s) => s.signal_id);
    const fromMinute = await ids(`/v1/signals?since=${minute.toISOString()}&limit=50`);
    expect(fromMinute).toContain(items[0].signal_id);
    expect(await ids(`/v1/signals?since=${leap(minute)}&limit=50`)).toEqual(fromMinute);
    expect(await ids('/v1/signals?since=2016-12-31T23:59:60Z')).toEqual(
      await ids('/v1/signals?since=2017-01-01T00:00:00Z'),
    );
    expect(await ids(`/v1/signals?since=${encodeURIComponent('2017-01-01T00:59:60+01:00')}`)).toEqual(
      await ids('/v1/signals?since=2017-01-01T00:00:00Z'),
    );
  });

  it.each([
    '2024-02-30',
    '2023-02-29',
    '2024-13-01',
    '2024-00-10',
    '2024-04-31',
    '2024-1-01',
  ])('the date %s is 422 naming the parameter on every channel', async (date) => {
    await refusedEverywhere('procurement_contracts', { from: date }, 'from');
    await refusedEverywhere('procurement_amendments', { to: date }, 'to');
    await refusedEverywhere('procurement_entity_red_flags', { nif: '500051070', from: date }, 'from');
    await refusedEverywhere('indicators_snapshot', { key: 'population', date }, 'date');
  });

  it('a leap day is a date', async () => {
    for (const url of [
      '/v1/procurement/contracts?from=2024-02-29',
      '/v1/indicators/population/snapshot?date=2000-02-29',
    ]) {
      t.clock.advance(61_000);
      const res = await t.get(url);
      expect(res.status, `${url}: ${res.body}`).toBe(200);
    }
  });
});

describe('integers that would read as Infinity', () => {
  it('309 digits on REST is 422 naming the parameter, never a lookup of Infinity', async () => {
    const digits = '9'.repeat(309);
    for (const [url, field] of [
      [`/v1/signals/${digits}`, 'signal_id'],
      [`/v1/signal-cases/${digits}`, 'case_id'],
      [`/v1/procurement/contracts/${digits}`, 'id'],
      [`/v1/procurement/amendments?contract=${digits}`, 'contract'],
      [`/v1/alert-matches?rule=${digits}`, 'rule'],
      [`/v1/signals?min_confidence=0.${digits}`, undefined],
      [`/v1/procurement/contracts?min_amount=${digits}`, 'min_amount'],
    ] as const) {
      t.clock.advance(61_000);
      const res = await t.get(url);
      expect(res.body).not.toContain('Infinity');
      if (field === undefined) expect(res.status, `${url}: ${res.body}`).toBe(200);
      else expectValidation(res, field);
    }
  });

  it.each([
    ['signals_get', 'signal_id'],
    ['signal_cases_get', 'case_id'],
    ['procurement_contract_get', 'id'],
    ['procurement_red_flags', 'id'],
    ['procurement_amendments', 'contract'],
    ['alert_matches', 'rule'],
  ])('%s with %s 1e400 (JSON), -1e400 or 1e300 is 422 naming it on every channel', async (name, field) => {
    const base = op(name).examples[0]?.input ?? {};
    for (const value of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e300]) {
      await refusedEverywhere(name, { ...base, [field]: value }, field);
    }
  });

  it('a number parameter is finite', async () => {
    await refusedEverywhere('procurement_contracts', { min_amount: Number.POSITIVE_INFINITY }, 'min_amount');
    await refusedEverywhere('signals_list', { min_confidence: Number.NEGATIVE_INFINITY }, 'min_confidence');
  });
});

describe('an answer that fails after the handler', () => {
  it('is refunded: the channel builds it inside the charge window', async () => {
    t.clock.advance(61_000);
    const before = await usage();
    const admission = await t.app.core.admit({ authorization: `Bearer ${t.keys.premium}`, clientAddress: '127.0.0.1' });
    const request = {
      admission,
      operation: op('municipalities_search'),
      input: { q: 'lisboa' },
      encoding: 'json',
      channel: 'rest',
    } as const;
    const failed = await t.app.core.execute(request);
    const call = buildCharged(failed.charge, () => {
      throw new Error('the envelope could not be built');
    });
    await expect(call).rejects.toMatchObject({ kind: 'internal' });
    expect(await usage()).toBe(before);
    const outcome = await t.app.core.execute(request);
    const built = await buildCharged(outcome.charge, () => outcome.body.length);
    expect(built).toBeGreaterThan(0);
    expect(await usage()).toBe(before + 1);
  });

  const loneSurrogateOnA2a =
    'A2A SendMessage with "q": "\\ud800" is the same kind on all three channels and leaves usage unchanged';
  it(loneSurrogateOnA2a, async () => {
    await refusedEverywhere('municipalities_search', { q: '\ud800' }, 'q');
  });
});
