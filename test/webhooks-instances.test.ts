/**
 * Webhook delivery across instances (docs/webhooks.md, Delivery; docs/pipeline.md, Several instances): three real
 * `munidata serve` processes (the compiled CLI) on one PostgreSQL database and one Redis, each running its own
 * pipeline every second, and one receiver verifying every delivery with `standardwebhooks`. Each event reaches
 * the receiver once; a receiver that answers 500 at first gets every event again with the same webhook-id after
 * the schedule's first delay; and the instance killed with SIGKILL in the middle of a delivery (the receiver holds
 * that request open) loses nothing: once its claim runs out another instance sends the same webhook-id again.
 *
 * Runs on PostgreSQL and Redis whatever MUNIDATA_TEST_BACKEND says, on a database and a Redis prefix of its own.
 * Needs the build (dist/): `npm test` builds first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import type { WebhookDeliveryRecord } from '../src/store/webhooks/records.js';
import { createWebhookEndpoint } from '../src/webhooks/endpoints.js';
import { DEFAULT_RETRY_SCHEDULE_S, RETRY_JITTER } from '../src/webhooks/schedule.js';
import { contracts } from './helpers/alert-fixture.js';
import { databaseUrl, dropDatabase, newDatabaseName } from './helpers/backend.js';
import { createDemoDatabase, type Instance, killInstances, requireBuild, startInstance } from './helpers/deployment.js';
import { deleteKeys, freePort, uniquePrefix } from './helpers/redis.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const PREFIX = uniquePrefix('webhooks-instances');
const database = newDatabaseName();
const NOW = new Date();
/** Contracts per batch: each is one match, so one event. */
const BATCH = 30;

let store: PostgresStore;
let receiver: WebhookReceiver;
let endpointId: number;
let accountId: number;
const instances: Instance[] = [];

/** Writes a batch of contracts the rule matches, each titled `tag n`; the instances' pipelines do the rest. */
async function writeBatch(tag: string): Promise<void> {
  const template = contracts(NOW)[1];
  await store.writeProcurement({
    contracts: Array.from({ length: BATCH }, (_, i) => ({
      ...template,
      source_id: `${tag}-${i}`,
      object: `Zeppelin ${tag} ${i}`,
    })),
  });
}

/** The endpoint's deliveries of the batch `tag`, once the matcher has written them all. */
async function deliveriesOf(tag: string): Promise<WebhookDeliveryRecord[]> {
  const all = await store.webhooks.listDeliveries(endpointId, 10_000);
  const titles = new Map((await matchesOf(tag)).map((m) => [m.id, m.title]));
  return all.filter((d) => titles.has(d.resource_id));
}

async function matchesOf(tag: string) {
  const all = await store.listAlertMatches({ accountId, since: '1970-01-01T00:00:00Z' }, { limit: 10_000 });
  return all.filter((m) => m.title?.startsWith(`Zeppelin ${tag} `));
}

/** What the receiver got of batch `tag`. */
function receivedOf(tag: string) {
  return receiver.received.filter((r) => String(r.body.data.title).startsWith(`Zeppelin ${tag} `));
}

/** Resolves once every delivery of batch `tag` is delivered (as the store says). */
async function allDelivered(tag: string, timeoutMs: number): Promise<WebhookDeliveryRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const deliveries = await deliveriesOf(tag);
    if (deliveries.length === BATCH && deliveries.every((d) => d.state === 'delivered')) return deliveries;
    if (Date.now() > deadline) {
      const states = deliveries.map((d) => d.state).join(' ');
      throw new Error(`batch ${tag}: ${deliveries.length} deliveries (${states}) not all delivered`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  requireBuild();
  store = await createDemoDatabase(database);
  const account = (
    await store.createAccount({ name: 'Ganchos Lda', plan_code: 'premium', beta: false, now: NOW.toISOString() })
  ).id;
  accountId = account;
  await createAlertRule(
    store,
    { account, name: 'Zeppelins', type: 'keyword', keywords: ['zeppelin'], sourceTypes: ['procurement_contract'] },
    NOW,
  );
  receiver = await WebhookReceiver.start();
  const created = await createWebhookEndpoint(
    store,
    { account, url: receiver.url(), events: ['alert_match.created'] },
    { now: NOW, allowLoopback: true },
  );
  receiver.secret = created.secret;
  endpointId = created.endpoint.id;
  const deployment = {
    DATABASE_URL: databaseUrl(database),
    REDIS_PREFIX: PREFIX,
    PIPELINE_INTERVAL_S: '1',
    WEBHOOK_ALLOW_LOOPBACK: '1',
  };
  const ports = new Set<number>();
  while (ports.size < 3) ports.add(await freePort());
  instances.push(...(await Promise.all([...ports].map((port) => startInstance(port, deployment)))));
}, 120_000);

afterAll(async () => {
  killInstances();
  await receiver?.close();
  await store?.close();
  await dropDatabase(database);
  await deleteKeys(PREFIX);
});

describe('three instances on one PostgreSQL database and one Redis', () => {
  it('deliver each event once, signed', async () => {
    await writeBatch('a');
    const deliveries = await allDelivered('a', 120_000);
    const got = receivedOf('a');
    expect(got.map((r) => r.id).sort()).toEqual(deliveries.map((d) => d.message_id).sort());
    expect(got.every((r) => r.verified)).toBe(true);
    expect(deliveries.every((d) => d.attempts === 1)).toBe(true);
  }, 150_000);

  it("send every event again after a 500, with the same webhook-id, after the schedule's first delay", async () => {
    const answered = new Set<string>();
    receiver.answer = (delivery) => {
      const first = !answered.has(delivery.id);
      answered.add(delivery.id);
      return first ? 500 : 200;
    };
    await writeBatch('b');
    const deliveries = await allDelivered('b', 120_000);
    const got = receivedOf('b');
    // Twice each: a 500, then a 200; once each after the receiver's de-duplication.
    expect(got).toHaveLength(2 * BATCH);
    expect(new Set(got.map((r) => r.id))).toEqual(new Set(deliveries.map((d) => d.message_id)));
    expect(got.every((r) => r.verified)).toBe(true);
    const [firstDelay] = DEFAULT_RETRY_SCHEDULE_S;
    for (const delivery of deliveries) {
      const [failed, succeeded] = await store.webhooks.listAttempts(delivery.id);
      expect([failed.status, succeeded.status]).toEqual([500, 200]);
      // The retry was due the first step of the schedule (±jitter) after the 500, and not sent before.
      const due = Date.parse(delivery.next_attempt_at) - Date.parse(failed.attempted_at);
      expect(due).toBeGreaterThanOrEqual(firstDelay * 1_000 * (1 - RETRY_JITTER));
      expect(due).toBeLessThanOrEqual(firstDelay * 1_000 * (1 + RETRY_JITTER));
      expect(Date.parse(succeeded.attempted_at)).toBeGreaterThanOrEqual(Date.parse(delivery.next_attempt_at));
    }
    receiver.answer = () => 200;
  }, 150_000);

  it('lose nothing when the delivering instance is killed (SIGKILL) in the middle of a delivery', async () => {
    let held = '';
    let release = (_status: number) => {};
    receiver.answer = (delivery) => {
      if (held !== '') return 200;
      held = delivery.id;
      return new Promise<number>((resolve) => {
        release = resolve;
      });
    };
    await writeBatch('c');
    await receiver.waitFor(() => held !== '', 120_000, 'a first delivery');
    // The instance that holds the delivery step now is the one whose request is open: its process id is in its name.
    const holder = (await store.pipeline.listPipelineSteps()).find((s) => s.step === 'deliver')?.running_holder;
    const pid = Number(holder?.split(':').at(-2));
    const victim = instances.find((i) => i.child.pid === pid);
    expect(victim, `deliver held by ${holder}`).toBeDefined();
    victim?.child.kill('SIGKILL');
    release(200);

    // Its claim runs out after 60 s; then a surviving instance sends the same webhook-id again.
    const deliveries = await allDelivered('c', 150_000);
    const got = receivedOf('c');
    expect(got.filter((r) => r.id === held)).toHaveLength(2);
    expect(new Set(got.map((r) => r.id))).toEqual(new Set(deliveries.map((d) => d.message_id)));
    expect(got.every((r) => r.verified)).toBe(true);
    // The killed attempt was never recorded: the one attempt in the log is the survivor's.
    const again = deliveries.find((d) => d.message_id === held) as WebhookDeliveryRecord;
    expect((await store.webhooks.listAttempts(again.id)).map((a) => a.status)).toEqual([200]);
  }, 200_000);
});
