/**
 * Delivery over https (docs/webhooks.md, Addresses and "Receivers with a private certificate authority"), by the
 * compiled `munidata webhooks deliver` on a copy of the demo store (SQLite, or PostgreSQL with
 * MUNIDATA_TEST_BACKEND=postgres): a TLS receiver on loopback whose self-signed certificate names only
 * `localhost` (test/fixtures/tls). The connection goes to the address the guard checked, while the certificate is
 * checked against the URL's name: untrusted, the attempt fails on the certificate and nothing is sent; trusted
 * through NODE_EXTRA_CA_CERTS, every delivery arrives, signed. (A name that re-resolves to a private address is
 * refused at delivery: test/webhooks.test.ts.)
 */
import { lookup } from 'node:dns/promises';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import type { Store } from '../src/store/store.js';
import type { WebhookDeliveryRecord } from '../src/store/webhooks/records.js';
import { createWebhookEndpoint } from '../src/webhooks/endpoints.js';
import { writeProcurementFixture } from './helpers/alert-fixture.js';
import { storeEnv } from './helpers/backend.js';
import { requireBuild, runCli } from './helpers/deployment.js';
import { copyDemoStore } from './helpers/test-app.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const CERT = fileURLToPath(new URL('fixtures/tls/localhost-cert.pem', import.meta.url));
const KEY = fileURLToPath(new URL('fixtures/tls/localhost-key.pem', import.meta.url));
const NOW = new Date();

let store: Store;
let env: Record<string, string>;
let receiver: WebhookReceiver;
let deliveries: WebhookDeliveryRecord[];

beforeAll(async () => {
  requireBuild();
  const copy = copyDemoStore();
  store = copy.store;
  env = { ...storeEnv(copy.dbPath), WEBHOOK_ALLOW_LOOPBACK: '1' };
  await writeProcurementFixture(store, NOW);
  // Where `localhost` resolves first here (127.0.0.1 or ::1): where the guard will send the connection.
  const [first] = await lookup('localhost', { all: true, verbatim: true });
  receiver = await WebhookReceiver.start({
    tls: { key: readFileSync(KEY, 'utf8'), cert: readFileSync(CERT, 'utf8') },
    host: first.address,
  });
  const account = (
    await store.createAccount({ name: 'Cifra Lda', plan_code: 'premium', beta: false, now: NOW.toISOString() })
  ).id;
  const created = await createWebhookEndpoint(
    store,
    { account, url: receiver.url('localhost'), events: ['alert_match.created'] },
    { now: NOW, allowLoopback: true },
  );
  receiver.secret = created.secret;
  await createAlertRule(store, { account, name: 'Zeppelins', type: 'keyword', keywords: ['zeppelin'] }, NOW);
  await runAlertMatching(store, { now: NOW });
  deliveries = await store.webhooks.listDeliveries(created.endpoint.id, 100);
  expect(deliveries.length).toBeGreaterThan(0);
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await store?.close();
});

describe('https delivery', () => {
  it('refuses a certificate the process does not trust: nothing is sent, the log says why', async () => {
    const report = JSON.parse(await runCli(['--json', 'webhooks', 'deliver'], env));
    expect(report).toMatchObject({ attempted: deliveries.length, delivered: 0 });
    expect(receiver.received).toEqual([]);
    const [attempt] = await store.webhooks.listAttempts(deliveries[0].id);
    expect(attempt).toMatchObject({ status: null, error: expect.stringMatching(/self[- ]signed certificate/) });
  });

  it("delivers to the certificate's name at the checked address once NODE_EXTRA_CA_CERTS trusts it", async () => {
    for (const d of deliveries) expect(await store.webhooks.redeliver(d.id, new Date().toISOString())).toBe(true);
    const report = JSON.parse(await runCli(['--json', 'webhooks', 'deliver'], { ...env, NODE_EXTRA_CA_CERTS: CERT }));
    expect(report).toMatchObject({ attempted: deliveries.length, delivered: deliveries.length });
    expect(receiver.received.map((r) => r.id).sort()).toEqual(deliveries.map((d) => d.message_id).sort());
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });
});
