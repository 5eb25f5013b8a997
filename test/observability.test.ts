/**
 * Issue 33 (docs/deploy.md, Operating), for real: metrics and traces turned on as `serve` turns them on, an app
 * listening on a port, an OTLP/HTTP receiver standing in for a collector and a webhook receiver. Checked as an
 * operator would: the spans and their parents for a REST request, an MCP call carrying `_meta.traceparent` and a
 * webhook delivery; then a scrape, read by a Prometheus text-format parser, after traffic on the three channels and
 * refused requests: every family present, counts equal to the requests sent, no label outside its bounded set,
 * nothing secret; and no /metrics on the public port.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import * as labels from '../src/observability/labels.js';
import { CHANNELS as CHANNEL_LABELS, STATUS_CLASSES } from '../src/observability/labels.js';
import { observeBacklog } from '../src/observability/pipeline-observer.js';
import { type Observability, startObservability } from '../src/observability/start-observability.js';
import { flushTraces } from '../src/observability/tracing.js';
import { pipelineBacklog } from '../src/pipeline/backlog.js';
import { storeLease } from '../src/pipeline/lease.js';
import { Pipeline } from '../src/pipeline/pipeline.js';
import { pipelineSteps } from '../src/pipeline/steps.js';
import { createWebhookEndpoint } from '../src/webhooks/endpoints.js';
import { writeProcurementFixture } from './helpers/alert-fixture.js';
import { CHANNELS, dataRequest, fetchAnswer } from './helpers/channels.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { scrape } from './helpers/prometheus-scrape.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let receiver: OtlpReceiver;
let observability: Observability;
let t: TestApp;
let origin: string;
let metricsUrl: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  // Before the store and the app, as `serve` does: their hooks look whether metrics and tracing are on.
  observability = await startObservability(
    {
      metrics: { host: '127.0.0.1', port: 0 },
      tracing: { endpoint: receiver.endpoint, headers: {}, serviceName: 'munidata-test' },
    },
    'test',
  );
  metricsUrl = observability.metricsUrl as string;
  t = await startTestApp();
  observeBacklog(() => pipelineBacklog(t.store));
  await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.http.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t.close();
  await observability.close();
  await receiver.close();
});

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** The spans received so far, once the ones ended are sent. */
async function spans(): Promise<ReceivedSpan[]> {
  await flushTraces();
  return receiver.spans;
}

/** The spans under `root` (its descendants), found through their parent ids. */
function descendants(all: ReceivedSpan[], root: ReceivedSpan): ReceivedSpan[] {
  const below = all.filter((span) => span.traceId === root.traceId && span.parentSpanId === root.spanId);
  return below.flatMap((span) => [span, ...descendants(all, span)]);
}

/** A series read from the store: a page size of its own is an answer no cache holds. */
let pageSize = 7;
const storeRead = () => ({ key: 'population', municipality: '1106', limit: pageSize++ });

describe('traces', () => {
  it("continue a REST request's traceparent: the request's span, admission, the call, its statements", async () => {
    const [traceId, parentId] = [hex(16), hex(8)];
    const request = dataRequest('rest', t.keys.premium, storeRead());
    request.headers.traceparent = `00-${traceId}-${parentId}-01`;
    expect((await fetchAnswer(origin, request)).status).toBe(200);

    const all = await spans();
    const server = all.find((span) => span.traceId === traceId && span.parentSpanId === parentId);
    expect(server?.name).toBe('GET /v1/indicators/:key/series');
    expect(server?.attributes).toMatchObject({
      'munidata.channel': 'rest',
      'munidata.operation': 'indicators_series',
      'http.response.status_code': 200,
      'munidata.account_id': t.accounts.premium,
    });
    const children = all.filter((span) => span.parentSpanId === server?.spanId).map((span) => span.name);
    expect(children).toEqual(expect.arrayContaining(['admission', 'operation indicators_series']));
    const operation = all.find((span) => span.parentSpanId === server?.spanId && span.name.startsWith('operation'));
    const statements = descendants(all, operation as ReceivedSpan).filter((span) => span.name.startsWith('db '));
    expect(statements.length).toBeGreaterThan(0);
    expect(statements[0].attributes['db.system']).toBe(
      process.env.MUNIDATA_TEST_BACKEND === 'postgres' ? 'postgresql' : 'sqlite',
    );
  });

  it("make an MCP call a child of its _meta.traceparent, whatever the HTTP request's own trace", async () => {
    const [traceId, parentId] = [hex(16), hex(8)];
    const request = dataRequest('mcp', t.keys.premium, storeRead());
    const body = JSON.parse(request.body as string);
    body.params._meta = { traceparent: `00-${traceId}-${parentId}-01` };
    const res = await fetchAnswer(origin, { ...request, body: JSON.stringify(body) });
    expect(res.json.result.isError).toBeFalsy();

    const all = await spans();
    const call = all.find((span) => span.traceId === traceId && span.parentSpanId === parentId);
    expect(call?.name).toBe('operation indicators_series');
    expect(descendants(all, call as ReceivedSpan).some((span) => span.name.startsWith('db '))).toBe(true);
    // The HTTP request has a span of its own (a root: the request carried no traceparent header).
    const server = all.find(
      (span) => span.name === 'POST /mcp' && span.attributes['munidata.operation'] === 'indicators_series',
    );
    expect(server?.parentSpanId).toBe('');
  });

  it('send traceparent with a webhook delivery: the receiver sees the span of its POST, under the step', async () => {
    const seen: string[] = [];
    const hook = createServer((request, response) => {
      seen.push(String(request.headers.traceparent));
      request.resume().on('end', () => response.writeHead(204).end());
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    try {
      const now = new Date();
      await writeProcurementFixture(t.store, now);
      const account = t.accounts.premium;
      const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
      await createWebhookEndpoint(
        t.store,
        { account, url, events: ['alert_match.created'] },
        { now, allowLoopback: true },
      );
      await createAlertRule(t.store, { account, name: 'Zeppelins', type: 'keyword', keywords: ['ZEPPELIN'] }, now);
      const steps = pipelineSteps({ sync: [], ineApiUrl: '', baseDataUrl: '', webhookAllowLoopback: true });
      const pipeline = new Pipeline({
        store: t.store,
        lease: storeLease(t.store),
        steps: steps.filter((step) => step.name !== 'detect'),
        intervalS: 60,
      });
      expect(await pipeline.runCycle()).toEqual({ match: 'ran', deliver: 'ran' });
    } finally {
      hook.close();
    }

    expect(seen.length).toBeGreaterThan(0);
    const all = await spans();
    for (const traceparent of seen) {
      const [, traceId, spanId] = traceparent.split('-');
      const post = all.find((span) => span.traceId === traceId && span.spanId === spanId);
      expect(post?.name).toBe('webhook POST');
      const step = all.find((span) => span.spanId === post?.parentSpanId);
      expect(step?.name).toBe('pipeline deliver');
    }
  });

  it('carry no secret in any attribute', async () => {
    const text = JSON.stringify(await spans());
    for (const secret of Object.values(t.keys)) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/sk_live_|Bearer/);
  });
});

describe('metrics', () => {
  it('are not served on the public port', async () => {
    expect((await fetch(`${origin}/metrics`)).status).toBe(404);
  });

  it('count the requests of the three channels and the refused ones, with bounded labels and no secret', async () => {
    const before = await scrape(metricsUrl);
    for (const channel of CHANNELS) {
      for (let i = 0; i < 3; i++)
        expect((await fetchAnswer(origin, dataRequest(channel, t.keys.premium))).status).toBe(200);
    }
    const wrongKey = `sk_live_${hex(20)}`;
    expect((await fetchAnswer(origin, dataRequest('rest', wrongKey))).status).toBe(401);
    const { key: limited } = await t.keyOnPlan('one_a_minute', { requests_per_minute: 1 });
    expect((await fetchAnswer(origin, dataRequest('rest', limited))).status).toBe(200);
    expect((await fetchAnswer(origin, dataRequest('rest', limited))).status).toBe(429);
    const after = await scrape(metricsUrl);

    const delta = (name: string, match: Record<string, string> = {}) =>
      after.total(name, match) - before.total(name, match);
    const ok = { operation: 'indicators_get', status_class: '2xx' };
    expect(delta('munidata_requests_total', { channel: 'rest', ...ok })).toBe(4);
    expect(delta('munidata_requests_total', { channel: 'a2a', ...ok })).toBe(3);
    expect(delta('munidata_requests_total', { channel: 'mcp', ...ok })).toBe(3);
    expect(delta('munidata_requests_total', { channel: 'rest', operation: 'none', status_class: '4xx' })).toBe(2);
    expect(delta('munidata_requests_total')).toBe(12);
    expect(delta('munidata_request_duration_seconds_count', { channel: 'mcp', operation: 'indicators_get' })).toBe(3);
    expect(delta('munidata_auth_failures_total', { kind: 'invalid_api_key' })).toBe(1);
    expect(delta('munidata_limit_refusals_total', { kind: 'rate_limited' })).toBe(1);
    expect(delta('munidata_store_statements_total')).toBeGreaterThan(0);

    expect([...after.families.keys()]).toEqual(expect.arrayContaining(EVERY_FAMILY));
    expect(after.total('munidata_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThan(0);
    expect(after.total('munidata_pipeline_step_last_success_timestamp_seconds', { step: 'deliver' })).toBeGreaterThan(
      0,
    );
    expect(after.families.get('munidata_pipeline_backlog_items')?.metrics.map((m) => m.labels?.step)).toEqual(
      expect.arrayContaining(['detect', 'match', 'deliver']),
    );

    const outside = [...after.families.values()].flatMap((family) =>
      family.metrics.flatMap((sample) =>
        Object.entries(sample.labels ?? {})
          .filter(([name, value]) => family.name.startsWith('munidata_') && !allowed(name, value, t))
          .map(([name, value]) => `${family.name}{${name}="${value}"}`),
      ),
    );
    expect(outside).toEqual([]);
    for (const secret of [...Object.values(t.keys), wrongKey, limited]) expect(after.text).not.toContain(secret);
  });

  it('are what the dashboard and alerting rules in deploy/ query: none names a family not served', async () => {
    const served = new Set((await scrape(metricsUrl)).families.keys());
    for (const file of ['deploy/grafana/munidata-dashboard.json', 'deploy/prometheus/alerts.yml']) {
      const queried = readFileSync(file, 'utf8').match(/\b(munidata|nodejs)_[a-z_]+/g) ?? [];
      expect(queried.length).toBeGreaterThan(0);
      expect(queried.filter((name) => !served.has(name.replace(/_bucket$/, '')))).toEqual([]);
    }
  });
});

describe('/readyz', () => {
  it('says per dependency ok or not, and since when; a second probe keeps the time while nothing changed', async () => {
    const first = (await t.app.http.inject({ url: '/readyz' })).json();
    expect(first.status).toBe('ok');
    expect(Object.keys(first.dependencies)).toEqual(expect.arrayContaining(['store_primary', 'pipeline']));
    expect(first.dependencies.store_primary).toEqual({ status: 'ok', since: expect.any(String) });
    expect(Date.parse(first.dependencies.store_primary.since)).toBeLessThanOrEqual(t.clock.now);
    const second = (await t.app.http.inject({ url: '/readyz' })).json();
    expect(second.dependencies.store_primary.since).toBe(first.dependencies.store_primary.since);
  });
});

/** Every family issue 33 names (the event loop's lag is Node's own, from prom-client's default metrics). */
const EVERY_FAMILY = [
  'munidata_requests_total',
  'munidata_request_duration_seconds',
  'munidata_limit_refusals_total',
  'munidata_auth_failures_total',
  'munidata_store_statements_total',
  'munidata_store_statement_duration_seconds',
  'munidata_store_statement_timeouts_total',
  'munidata_store_pool_connections',
  'munidata_redis_command_duration_seconds',
  'munidata_redis_command_errors_total',
  'munidata_pipeline_step_last_success_timestamp_seconds',
  'munidata_pipeline_step_duration_seconds',
  'munidata_pipeline_step_items_total',
  'munidata_pipeline_backlog_items',
  'munidata_webhook_deliveries_total',
  'munidata_webhook_outbox_oldest_age_seconds',
  'nodejs_eventloop_lag_seconds',
  'munidata_build_info',
];

/** Whether a label of one of the service's families has a value of its bounded set. */
function allowed(name: string, value: string, app: TestApp): boolean {
  const sets: Record<string, readonly string[]> = {
    channel: CHANNEL_LABELS,
    status_class: STATUS_CLASSES,
    operation: [labels.NO_OPERATION, ...app.app.registry.all.map((op) => op.name)],
    kind: [...labels.REFUSAL_KINDS, ...labels.AUTH_FAILURE_KINDS],
    area: labels.STORE_AREAS,
    outcome: [...labels.STATEMENT_OUTCOMES, ...labels.WEBHOOK_OUTCOMES, 'ran', 'failed'],
    pool: labels.POOLS,
    state: labels.POOL_STATES,
    command: labels.REDIS_COMMANDS,
    step: ['sync_base', 'sync_ine', 'detect', 'match', 'deliver'],
    version: ['test'],
    node_version: [process.version],
  };
  if (name === 'le') return /^(\+Inf|[0-9.e-]+)$/.test(value);
  return sets[name]?.includes(value) ?? false;
}
