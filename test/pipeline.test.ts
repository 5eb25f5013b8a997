/**
 * The pipeline `serve` runs (docs/pipeline.md), in-process on a copy of the demo store (SQLite, or PostgreSQL with
 * MUNIDATA_TEST_BACKEND=postgres): a contract imported is detected and matched by a rule within one cycle; a lease
 * held by another instance keeps a step from running until it runs out; each step's last success and last error are
 * in the store and in `/readyz`; a stop abandons a step that outlives its deadline and frees its lease.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { storeLease } from '../src/pipeline/lease.js';
import { Pipeline } from '../src/pipeline/pipeline.js';
import type { PipelineStep } from '../src/pipeline/step.js';
import { pipelineSteps } from '../src/pipeline/steps.js';
import type { Store } from '../src/store/store.js';
import { pipelineSection } from '../src/web/console/pipeline-section.js';
import { createWebhookEndpoint } from '../src/webhooks/endpoints.js';
import { contracts } from './helpers/alert-fixture.js';
import { copyDemoStore, startTestApp, type TestApp } from './helpers/test-app.js';

const NOW = new Date();
const STEPS = pipelineSteps({
  sync: [],
  ineApiUrl: 'http://127.0.0.1:9',
  baseDataUrl: 'http://127.0.0.1:9',
  webhookAllowLoopback: true,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let store: Store;
let t: TestApp;

beforeAll(async () => {
  ({ store } = copyDemoStore());
  t = await startTestApp({ store });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function pipeline(steps: readonly PipelineStep[], holder: string, leaseTtlMs?: number): Pipeline {
  return new Pipeline({ store, lease: storeLease(store), steps, intervalS: 60, holder, leaseTtlMs });
}

async function statusOf(step: string) {
  return (await store.pipeline.listPipelineSteps()).find((s) => s.step === step);
}

describe('a cycle', () => {
  const CYCLE = 'detects, matches and delivers (signed) a contract imported since the last, for a rule made since';
  it(CYCLE, async () => {
    const instance = pipeline(STEPS, 'instance-a');
    // The demo store's journal caught up: what the next cycle finds is what comes after.
    expect(await instance.runCycle()).toEqual({ detect: 'ran', match: 'ran', deliver: 'ran' });
    const account = (
      await store.createAccount({ name: 'Pipeline Lda', plan_code: 'premium', beta: false, now: NOW.toISOString() })
    ).id;
    const rule = await createAlertRule(
      store,
      { account, name: 'Zeppelins', type: 'keyword', keywords: ['zeppelin'] },
      NOW,
    );
    // A receiver that verifies each delivery with the Standard Webhooks library.
    const received: { type: string; verified: boolean }[] = [];
    let secret = '';
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let verified = true;
        try {
          new Webhook(secret).verify(body, request.headers as Record<string, string>);
        } catch {
          verified = false;
        }
        received.push({ type: JSON.parse(body).type, verified });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    ({ secret } = await createWebhookEndpoint(
      store,
      { account, url, events: ['alert_match.created'] },
      { now: NOW, allowLoopback: true },
    ));
    const publicity = contracts(NOW).find((c) => c.object === 'Zeppelin publicitário');
    if (!publicity) throw new Error('the fixture has no publicity zeppelin');
    await store.writeProcurement({ contracts: [publicity] });
    const before = await store.listAlertMatches({ accountId: account, since: '1970-01-01T00:00:00Z' }, { limit: 10 });
    expect(before).toEqual([]);

    expect(await instance.runCycle()).toEqual({ detect: 'ran', match: 'ran', deliver: 'ran' });
    receiver.close();
    expect(received).toEqual([{ type: 'alert_match.created', verified: true }]);

    const detect = await statusOf('detect');
    expect(detect?.last_summary).toMatchObject({ procurement: { entries: 1 } });
    const matches = await store.listAlertMatches({ accountId: account, since: '1970-01-01T00:00:00Z' }, { limit: 10 });
    expect(matches.map((m) => [m.rule_id, m.source_type, m.title])).toEqual([
      [rule.id, 'procurement_contract', expect.stringContaining('Zeppelin publicitário')],
    ]);
  }, 120_000);

  it("records each step's last success and last error, which /readyz details", async () => {
    const failing: PipelineStep = {
      name: 'test_failing',
      run: async () => {
        throw new Error('the source answered 503');
      },
    };
    const counting: PipelineStep = { name: 'test_counting', run: async () => ({ counted: 3 }) };
    expect(await pipeline([failing, counting], 'instance-a').runCycle()).toEqual({
      test_failing: 'failed',
      test_counting: 'ran',
    });
    const res = await t.app.http.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    const steps = JSON.parse(res.body).pipeline.steps as Record<string, unknown>[];
    expect(steps.find((s) => s.step === 'test_failing')).toMatchObject({
      running_holder: null,
      last_success_at: null,
      last_error: 'the source answered 503',
      last_error_at: expect.any(String),
    });
    expect(steps.find((s) => s.step === 'test_counting')).toMatchObject({
      running_holder: null,
      last_success_at: expect.any(String),
      last_summary: { counted: 3 },
      last_error: null,
    });
    // Nothing is left held: the next cycle of any instance may run them.
    expect(await store.pipeline.acquireLease('test_counting', 'instance-b', Date.now(), 1_000)).toBe(true);
  });
});

describe("the console's section", () => {
  it('shows each step as the store holds it, what a step wrote kept as text', async () => {
    const hostile: PipelineStep = {
      name: 'test_hostile',
      run: async () => {
        throw new Error('<img src=x onerror=alert(1)> & more');
      },
    };
    await pipeline([hostile], 'instance-a').runCycle();
    const text = (await pipelineSection(store, 60)).text;
    expect(text).toContain('A cycle every 60 s');
    expect(text).toMatch(/<th scope="row">detect<\/th><td>idle<\/td><td><time>[^<]+<\/time>/);
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; more');
    expect(text).not.toContain('<img');
    expect((await pipelineSection(store, 0)).text).toContain('Off on this instance');
  });
});

describe('leases', () => {
  it('a step whose lease another holds is skipped until the lease runs out, then taken over', async () => {
    let runs = 0;
    const step: PipelineStep = { name: 'test_leased', run: async () => ++runs };
    // A holder that took the lease for 1.5 s and then died: it neither renews nor releases it.
    expect(await store.pipeline.acquireLease('test_leased', 'dead-instance', Date.now(), 1_500)).toBe(true);
    const other = pipeline([step], 'instance-b');
    expect(await other.runCycle()).toEqual({ test_leased: 'held_elsewhere' });
    await sleep(1_600);
    expect(await other.runCycle()).toEqual({ test_leased: 'ran' });
    expect(runs).toBe(1);
    // The dead holder, come back, finds its lease gone and cannot renew or release another's.
    expect(await store.pipeline.renewLease('test_leased', 'dead-instance', Date.now(), 1_500)).toBe(false);
  });

  it('a step running longer than its lease keeps it by renewing it', async () => {
    const slow: PipelineStep = { name: 'test_renewed', run: () => sleep(1_200) };
    const holder = pipeline([slow], 'instance-a', 600);
    const running = holder.runCycle();
    await sleep(900); // past the lease's first 600 ms: renewed every 200 ms
    expect(await store.pipeline.acquireLease('test_renewed', 'instance-b', Date.now(), 600)).toBe(false);
    expect(await running).toEqual({ test_renewed: 'ran' });
  });
});

describe('stop', () => {
  it('abandons a step that outlives the deadline, says so, and frees its lease', async () => {
    const endless: PipelineStep = { name: 'test_endless', run: () => sleep(5_000) };
    const instance = new Pipeline({
      store,
      lease: storeLease(store),
      steps: [endless],
      intervalS: 1,
      holder: 'instance-a',
    });
    instance.start();
    await sleep(1_300); // the first cycle starts after one interval
    expect(instance.current?.step).toBe('test_endless');
    expect(await statusOf('test_endless')).toMatchObject({ running_holder: 'instance-a' });
    expect(await instance.stop(200)).toBe('abandoned');
    expect(await statusOf('test_endless')).toMatchObject({
      running_holder: null,
      last_error: expect.stringMatching(/abandoned at shutdown/),
    });
    expect(await store.pipeline.acquireLease('test_endless', 'instance-b', Date.now(), 1_000)).toBe(true);
  });

  it('waits for a step that ends within the deadline', async () => {
    const short: PipelineStep = { name: 'test_short', run: () => sleep(300) };
    const instance = new Pipeline({ store, lease: storeLease(store), steps: [short], intervalS: 1, holder: 'a' });
    instance.start();
    await sleep(1_100);
    expect(instance.current?.step).toBe('test_short');
    expect(await instance.stop(5_000)).toBe('finished');
    expect(await statusOf('test_short')).toMatchObject({ running_holder: null, last_error: null });
  });
});
