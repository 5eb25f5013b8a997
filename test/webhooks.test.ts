/**
 * Signed webhooks (docs/webhooks.md) on a copy of the demo store: a match recorded writes its deliveries in the
 * same transaction; a local receiver verifies every delivery with the `standardwebhooks` library; a receiver that
 * fails then recovers gets every event with the same webhook-id; 410 disables; private addresses are refused at
 * registration and at delivery; a dead worker's claim expires and loses nothing; two workers on one store never
 * send the same delivery twice.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import { runCases } from '../src/detect/run-cases.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import { HostNotFoundError, type Resolver, refusal } from '../src/webhooks/address-guard.js';
import { deliverWebhooks } from '../src/webhooks/deliver.js';
import { ACCOUNT_WORDING, type EndpointWording } from '../src/webhooks/endpoint-wording.js';
import { createWebhookEndpoint, rotateWebhookSecret } from '../src/webhooks/endpoints.js';
import { fixtureSignals, writeFixtureSignals, writeProcurementFixture } from './helpers/alert-fixture.js';
import { onPostgres } from './helpers/backend.js';
import { copyDemoStore } from './helpers/test-app.js';

const NOW = new Date();
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1_000);
/** A short schedule for the tests: 1 s, then 2 s, then give up. */
const SHORT = [1, 2];

interface Received {
  path: string;
  id: string;
  body: any;
  verified: boolean;
}

/** A receiver: per path, the secrets it verifies with and the statuses it answers (the last one repeats). */
class Receiver {
  readonly received: Received[] = [];
  readonly routes = new Map<string, { secrets: string[]; statuses: number[]; headers?: Record<string, string> }>();
  inFlight = new Map<string, number>();
  overlapped = false;
  server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', async () => {
      const path = request.url ?? '';
      const route = this.routes.get(path);
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id']);
      this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
      if ((this.inFlight.get(id) ?? 0) > 1) this.overlapped = true;
      await new Promise((r) => setTimeout(r, 20));
      this.inFlight.set(id, (this.inFlight.get(id) ?? 1) - 1);
      const verified = (route?.secrets ?? []).some((secret) => {
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
          return true;
        } catch {
          return false;
        }
      });
      this.received.push({ path, id, body: JSON.parse(body), verified });
      const status = route ? (route.statuses.length > 1 ? (route.statuses.shift() as number) : route.statuses[0]) : 404;
      response.writeHead(status, { 'content-type': 'text/plain', ...route?.headers }).end(`answer ${status}`);
    });
  });
  url(path: string) {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }
  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }
}

describe('webhooks', () => {
  let store: Store;
  let dbPath: string;
  const receiver = new Receiver();

  beforeAll(async () => {
    ({ store, dbPath } = copyDemoStore());
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    await writeProcurementFixture(store, NOW);
  });
  afterAll(async () => {
    receiver.server.close();
    await store.close();
  });

  /** An account with a keyword rule on the fixture's zeppelins and an endpoint at `path`, matched once. */
  async function matchedEndpoint(path: string, statuses: number[], events = ['alert_match.created']) {
    const account = (
      await store.createAccount({ name: `Ganchos ${path}`, plan_code: 'premium', beta: false, now: NOW.toISOString() })
    ).id;
    const { endpoint, secret } = await createWebhookEndpoint(
      store,
      { account, url: receiver.url(path), events },
      { now: NOW, allowLoopback: true },
    );
    receiver.routes.set(path, { secrets: [secret], statuses });
    await createAlertRule(store, { account, name: 'Zeppelins', type: 'keyword', keywords: ['ZEPPELIN'] }, NOW);
    await runAlertMatching(store, { now: NOW });
    const matches = await store.listAlertMatches(
      { accountId: account, since: '1970-01-01T00:00:00Z' },
      { after: undefined, limit: 100 },
    );
    return { account, endpoint, secret, matches };
  }

  it('writes a delivery with every match, and the receiver verifies each with standardwebhooks', async () => {
    const { endpoint, matches } = await matchedEndpoint('/ok', [204]);
    expect(matches.length).toBeGreaterThan(1);
    const queued = await store.webhooks.listDeliveries(endpoint.id, 100);
    expect(queued.map((d) => d.resource_id).sort()).toEqual(matches.map((m) => m.id).sort());

    const summary = await deliverWebhooks(store, { now: later(1), allowLoopback: true, schedule: SHORT });
    expect(summary.delivered).toBe(matches.length);
    const got = receiver.at('/ok');
    expect(got).toHaveLength(matches.length);
    expect(got.every((r) => r.verified)).toBe(true);
    // The body: {type, timestamp, data} with data the alert_matches resource.
    const first = got.find((r) => r.body.data.id === matches[0].id) as Received;
    expect(first.body.type).toBe('alert_match.created');
    expect(first.body.data).toMatchObject({ id: matches[0].id, rule_id: matches[0].rule_id, title: matches[0].title });
    expect(first.body.data.synthetic).toBe(false);
    const [delivery] = (await store.webhooks.listDeliveries(endpoint.id, 100)).filter((d) => d.message_id === first.id);
    expect(delivery.state).toBe('delivered');
    const [attempt] = await store.webhooks.listAttempts(delivery.id);
    expect(attempt).toMatchObject({ status: 204 });

    // Nothing is due any more: a second run sends nothing.
    expect((await deliverWebhooks(store, { now: later(60), allowLoopback: true })).attempted).toBe(0);
  });

  it('retries a 500 on the schedule with the same webhook-id, until the 200', async () => {
    const { endpoint, matches } = await matchedEndpoint('/flaky', [500, 500, 500, 200]);
    const n = matches.length;
    await deliverWebhooks(store, { now: later(1), allowLoopback: true, schedule: SHORT, random: () => 0.5 });
    // Not yet due: the retry waits its second.
    expect((await deliverWebhooks(store, { now: later(1.5), allowLoopback: true, schedule: SHORT })).attempted).toBe(0);
    await deliverWebhooks(store, { now: later(3), allowLoopback: true, schedule: SHORT, random: () => 0.5 });
    await deliverWebhooks(store, { now: later(10), allowLoopback: true, schedule: SHORT, random: () => 0.5 });
    const got = receiver.at('/flaky');
    const delivered = (await store.webhooks.listDeliveries(endpoint.id, 100)).filter((d) => d.state === 'delivered');
    // Three 500s, then 200s: every event arrives, each id once after de-duplication by the receiver.
    expect(got.length).toBe(n + 3);
    expect(new Set(got.map((r) => r.id)).size).toBe(n);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(
      delivered.length +
        (await store.webhooks.listDeliveries(endpoint.id, 100)).filter((d) => d.state === 'failed').length,
    ).toBe(n);
    const retried = (await store.webhooks.listDeliveries(endpoint.id, 100)).find((d) => d.attempts > 1);
    const log = await store.webhooks.listAttempts(retried?.id as number);
    expect(log[0]).toMatchObject({ status: 500, response_head: 'answer 500' });
    expect((await store.webhooks.getEndpoint(endpoint.id))?.enabled).toBe(true);
  });

  it('disables an endpoint that answers 410', async () => {
    const { endpoint } = await matchedEndpoint('/gone', [410]);
    const summary = await deliverWebhooks(store, { now: later(1), allowLoopback: true, schedule: SHORT });
    expect(summary.disabled).toBe(1);
    const after = await store.webhooks.getEndpoint(endpoint.id);
    expect(after?.enabled).toBe(false);
    expect(after?.disabled_reason).toMatch(/410/);
    // A disabled endpoint's deliveries are not attempted.
    const before = receiver.at('/gone').length;
    await store.webhooks.redeliver((await store.webhooks.listDeliveries(endpoint.id, 1))[0].id, later(2).toISOString());
    await deliverWebhooks(store, { now: later(5), allowLoopback: true, schedule: SHORT });
    expect(receiver.at('/gone')).toHaveLength(before);
  });

  it('refuses private, loopback and metadata addresses at registration', async () => {
    const account = (await store.createAccount({ name: 'SSRF', plan_code: 'premium', beta: false, now: 'x' })).id;
    const register = (url: string, allowLoopback: boolean, resolve?: Resolver) =>
      createWebhookEndpoint(store, { account, url, events: ['signal.created'] }, { now: NOW, allowLoopback, resolve });
    await expect(register('http://example.org/hook', false)).rejects.toThrow(/must be https/);
    await expect(register('https://10.1.2.3/hook', false)).rejects.toThrow(/private/);
    await expect(register('https://169.254.169.254/latest', false)).rejects.toThrow(/link-local|private/);
    await expect(register('https://[fd00:ec2::254]/', false)).rejects.toThrow(/private/);
    await expect(register('https://127.0.0.1/', false)).rejects.toThrow(/loopback/);
    const toMetadata: Resolver = async () => [{ address: '169.254.169.254', family: 4 }];
    await expect(register('https://hooks.example.org/', false, toMetadata)).rejects.toThrow(/hooks.example.org/);
    await expect(register('https://[::ffff:192.168.1.1]/', false)).rejects.toThrow(/private/);
    await expect(register('https://[::ffff:a00:1]/', false)).rejects.toThrow(/10\.0\.0\.1.*private/);
    await expect(register('https://[::ffff:127.0.0.1]/', false)).rejects.toThrow(/loopback/);
  });

  it('words a name that gives no address for its reader: the operator gets the code, an account words', async () => {
    const account = (await store.createAccount({ name: 'No DNS', plan_code: 'premium', beta: false, now: 'x' })).id;
    const nowhere: Resolver = async () => {
      throw new HostNotFoundError('ENOTFOUND');
    };
    const register = (wording?: EndpointWording) =>
      createWebhookEndpoint(
        store,
        { account, url: 'https://hooks.exmaple.pt/in', events: ['signal.created'] },
        { now: NOW, allowLoopback: false, resolve: nowhere, wording },
      );
    await expect(register()).rejects.toThrow('refused URL: hooks.exmaple.pt does not resolve (ENOTFOUND)');
    const worded = await register(ACCOUNT_WORDING).catch((error: Error) => error.message);
    expect(worded).toBe(
      'refused URL: no address was found for hooks.exmaple.pt: check how it is spelt, and that the name is ' +
        'published in DNS',
    );
    expect(worded).not.toContain('ENOTFOUND');
  });

  it('registers public addresses: IPv4, IPv6, IPv4-mapped, and a name that resolves to them', async () => {
    const account = (await store.createAccount({ name: 'Public', plan_code: 'premium', beta: false, now: 'x' })).id;
    const register = (url: string, resolve?: Resolver) =>
      createWebhookEndpoint(
        store,
        { account, url, events: ['signal.created'] },
        { now: NOW, allowLoopback: false, resolve },
      );
    for (const url of ['https://1.1.1.1/hook', 'https://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook']) {
      expect((await register(url)).endpoint.url).toBe(url);
    }
    expect((await register('https://[::ffff:8.8.4.4]/hook')).endpoint.url).toBe('https://[::ffff:8.8.4.4]/hook');
    const toPublic: Resolver = async () => [{ address: '93.184.215.14', family: 4 }];
    expect((await register('https://hooks.example.org/in', toPublic)).endpoint.url).toBe(
      'https://hooks.example.org/in',
    );
    expect(refusal('9.9.9.9', false)).toBeNull();
    expect(refusal('8.8.8.8', false)).toBeNull();
  });

  it('refuses at delivery a name that now resolves to a private address', async () => {
    const account = (await store.createAccount({ name: 'Rebind', plan_code: 'premium', beta: false, now: 'x' })).id;
    let address = '127.0.0.1';
    const resolve: Resolver = async () => [{ address, family: 4 }];
    const port = (receiver.server.address() as AddressInfo).port;
    const { endpoint } = await createWebhookEndpoint(
      store,
      { account, url: `http://rebind.test:${port}/rebind`, events: ['alert_match.created'] },
      { now: NOW, allowLoopback: true, resolve },
    );
    receiver.routes.set('/rebind', { secrets: [], statuses: [200] });
    await createAlertRule(store, { account, name: 'Z', type: 'keyword', keywords: ['ZEPPELIN'] }, NOW);
    await runAlertMatching(store, { now: NOW });
    address = '10.0.0.7';
    const summary = await deliverWebhooks(store, { now: later(1), allowLoopback: true, schedule: SHORT, resolve });
    expect(summary.attempted).toBeGreaterThan(0);
    expect(summary.delivered).toBe(0);
    expect(receiver.at('/rebind')).toHaveLength(0);
    const [d] = await store.webhooks.listDeliveries(endpoint.id, 1);
    expect((await store.webhooks.listAttempts(d.id))[0].error).toMatch(/10\.0\.0\.7.*private/);
  });

  it('delivers again, with the same webhook-id, what a dead worker had claimed once its claim expires', async () => {
    const { endpoint, matches } = await matchedEndpoint('/dead', [200]);
    // A worker claims for 60 s and dies (kill -9): nothing of it is finished.
    const claimed = await store.webhooks.claimDeliveries(later(1).toISOString(), later(61).toISOString(), 100);
    const mine = claimed.filter((d) => d.endpoint_id === endpoint.id);
    expect(mine).toHaveLength(matches.length);
    await deliverWebhooks(store, { now: later(30), allowLoopback: true });
    expect(receiver.at('/dead')).toHaveLength(0);
    await deliverWebhooks(store, { now: later(62), allowLoopback: true });
    expect(
      receiver
        .at('/dead')
        .map((r) => r.id)
        .sort(),
    ).toEqual(mine.map((d) => d.message_id).sort());
  });

  it('two workers on one store never send the same delivery twice', async () => {
    const { matches } = await matchedEndpoint('/pair', [200]);
    const second = openStore(onPostgres ? { dbPath: '', databaseUrl: dbPath } : { dbPath });
    try {
      const options = { now: later(1), allowLoopback: true, batchSize: 2 };
      const [a, b] = await Promise.all([deliverWebhooks(store, options), deliverWebhooks(second, options)]);
      expect(a.delivered + b.delivered).toBe(matches.length);
      const ids = receiver.at('/pair').map((r) => r.id);
      expect(ids).toHaveLength(matches.length);
      expect(new Set(ids).size).toBe(matches.length);
      expect(receiver.overlapped).toBe(false);
    } finally {
      await second.close();
    }
  });

  it('signal.created reaches the endpoints of its family; the rotated-out secret and the new both sign', async () => {
    const account = (await store.createAccount({ name: 'Sinais', plan_code: 'premium', beta: false, now: 'x' })).id;
    const { endpoint, secret } = await createWebhookEndpoint(
      store,
      { account, url: receiver.url('/signals'), events: ['signal.created'], families: ['indicators'] },
      { now: NOW, allowLoopback: true },
    );
    const rotated = await rotateWebhookSecret(store, endpoint.id, NOW);
    await writeFixtureSignals(store, NOW);
    const indicatorSignals = (
      await store.getSignalsByKeys([
        'indicators:indicator_jump:alerttest:porto',
        'indicators:indicator_jump:alerttest:lisboa',
      ])
    ).map((s) => s.id);
    const queued = await store.webhooks.listDeliveries(endpoint.id, 100);
    expect(queued.map((d) => d.resource_id).sort()).toEqual(indicatorSignals.sort());
    // Each secret alone verifies: a receiver still on the old one and one already on the new.
    receiver.routes.set('/signals', { secrets: [secret], statuses: [200] });
    await deliverWebhooks(store, { now: later(1), allowLoopback: true });
    expect(receiver.at('/signals').every((r) => r.verified)).toBe(true);
    const [one] = receiver.at('/signals');
    expect(one.body).toMatchObject({ type: 'signal.created', data: { family: 'indicators' } });
    receiver.routes.set('/signals', { secrets: [rotated.secret], statuses: [200] });
    await store.webhooks.redeliver(queued[0].id, later(2).toISOString());
    await deliverWebhooks(store, { now: later(3), allowLoopback: true });
    expect(receiver.at('/signals').at(-1)?.verified).toBe(true);
    expect(receiver.at('/signals').at(-1)?.id).toBe(queued[0].message_id);
  });

  it('waits what Retry-After asks on a 429 (up to the longest step of the schedule)', async () => {
    const { endpoint } = await matchedEndpoint('/busy', [429]);
    receiver.routes.set('/busy', {
      ...(receiver.routes.get('/busy') as { secrets: string[]; statuses: number[] }),
      headers: { 'retry-after': '120' },
    });
    await deliverWebhooks(store, { now: later(1), allowLoopback: true, schedule: [1, 300] });
    const [d] = await store.webhooks.listDeliveries(endpoint.id, 1);
    const [attempt] = await store.webhooks.listAttempts(d.id);
    expect(attempt.status).toBe(429);
    const waited = (Date.parse(d.next_attempt_at) - Date.parse(attempt.attempted_at)) / 1_000;
    expect(waited).toBe(120);
  });

  it("refuses an event whose domain the account's plan does not include", async () => {
    const account = (await store.createAccount({ name: 'Livre', plan_code: 'free', beta: false, now: 'x' })).id;
    await expect(
      createWebhookEndpoint(
        store,
        { account, url: receiver.url('/free'), events: ['alert_match.created'] },
        { now: NOW, allowLoopback: true },
      ),
    ).rejects.toThrow(/needs the alerts domain/);
  });

  it('case.stage_changed is written with the stage change and carries the case', async () => {
    const account = (await store.createAccount({ name: 'Casos', plan_code: 'premium', beta: false, now: 'x' })).id;
    const { endpoint, secret } = await createWebhookEndpoint(
      store,
      { account, url: receiver.url('/cases'), events: ['case.stage_changed'] },
      { now: NOW, allowLoopback: true },
    );
    receiver.routes.set('/cases', { secrets: [secret], statuses: [200] });
    const [base] = fixtureSignals(NOW);
    const caseRef = {
      ...(base.case as NonNullable<typeof base.case>),
      key: 'procurement:alerttest:announcement:HOOK-1',
    };
    const opened = {
      ...base,
      key: 'procurement:tender_open:alerttest:HOOK-1',
      type: 'tender_open',
      stage: 'open' as const,
    };
    await store.writeSignals({
      signals: [{ ...opened, case: { ...caseRef, relationship: 'origin' } }],
      now: NOW.toISOString(),
    });
    await runCases(store, { now: NOW.toISOString() });
    expect(await store.webhooks.listDeliveries(endpoint.id, 10)).toHaveLength(0);
    const awarded = { ...base, key: 'procurement:contract_awarded:alerttest:HOOK-1', type: 'contract_awarded' };
    await store.writeSignals({
      signals: [{ ...awarded, stage: 'awarded' as const, case: caseRef }],
      now: later(1).toISOString(),
    });
    await runCases(store, { now: later(1).toISOString() });
    const caseId = await store.findCaseId(caseRef.key);
    const queued = await store.webhooks.listDeliveries(endpoint.id, 10);
    expect(queued.map((d) => d.resource_id)).toEqual([caseId]);
    await deliverWebhooks(store, { now: later(2), allowLoopback: true });
    const [got] = receiver.at('/cases');
    expect(got.verified).toBe(true);
    expect(got.body).toMatchObject({ type: 'case.stage_changed', data: { id: caseId, current_stage: 'awarded' } });
  });

  it('disables an endpoint that has failed for the stated time, and enabling it resumes its deliveries', async () => {
    const { endpoint, matches } = await matchedEndpoint('/down', [500]);
    const options = { allowLoopback: true, schedule: Array(50).fill(1), disableAfterS: 30, random: () => 0.5 };
    await deliverWebhooks(store, { ...options, now: later(1) });
    expect((await store.webhooks.getEndpoint(endpoint.id))?.enabled).toBe(true);
    await deliverWebhooks(store, { ...options, now: later(40) });
    const down = await store.webhooks.getEndpoint(endpoint.id);
    expect(down?.enabled).toBe(false);
    expect(down?.disabled_reason).toMatch(/every delivery failed since/);
    (receiver.routes.get('/down') as { statuses: number[] }).statuses = [200];
    await store.webhooks.setEndpointEnabled(endpoint.id, true, null);
    await deliverWebhooks(store, { ...options, now: later(80) });
    await deliverWebhooks(store, { ...options, now: later(120) });
    const ids = new Set(receiver.at('/down').map((r) => r.id));
    expect(ids.size).toBe(matches.length);
    const states = (await store.webhooks.listDeliveries(endpoint.id, 100)).map((d) => d.state);
    expect(states).toEqual(matches.map(() => 'delivered'));
  });
});
