/**
 * `munidata webhooks`: the secret printed once (never listed), refusals with their reason, rotation, disable,
 * enable, delete, and a delivery listed with its attempts, sent again by `redeliver` with the same webhook-id.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAlertRule } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import type { CliContext } from '../src/cli/context.js';
import { registerWebhookCommands } from '../src/cli/webhook-commands.js';
import type { Config } from '../src/config.js';
import type { Store } from '../src/store/store.js';
import { writeProcurementFixture } from './helpers/alert-fixture.js';
import { copyDemoStore } from './helpers/test-app.js';

let store: Store;
let account: number;
const ids: string[] = [];
const receiver = createServer((request, response) => {
  ids.push(String(request.headers['webhook-id']));
  request.resume();
  request.on('end', () => response.writeHead(200).end('ok'));
});

/** Runs `munidata --json webhooks ARGS` (loopback allowed unless `loopback` is false) and parses what it printed. */
async function run(args: string[], loopback = true): Promise<any> {
  const program = new Command('munidata')
    .option('--json', 'JSON', false)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const cli: CliContext = {
    config: { webhookAllowLoopback: loopback } as Config,
    json: () => program.opts().json === true,
    withStore: (work) => work(store),
  };
  registerWebhookCommands(program, cli);
  const printed: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await program.parseAsync(['node', 'munidata', '--json', 'webhooks', ...args]);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(printed.join(''));
}

async function refusal(args: string[], loopback = true): Promise<string> {
  try {
    await run(args, loopback);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`munidata webhooks ${args.join(' ')} did not fail`);
}

const url = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;

beforeAll(async () => {
  store = copyDemoStore().store;
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const now = new Date();
  account = (await store.createAccount({ name: 'Ganchos Lda', plan_code: 'premium', beta: false, now: 'x' })).id;
  await writeProcurementFixture(store, now);
  await createAlertRule(store, { account, name: 'Zeppelins', type: 'keyword', keywords: ['ZEPPELIN'] }, now);
});
afterAll(async () => {
  receiver.close();
  await store.close();
});

describe('munidata webhooks', () => {
  it('prints the secret once on create and never in the list', async () => {
    const created = await run([
      'create',
      '--account',
      String(account),
      '--url',
      url('/hook'),
      '--events',
      'alert_match.created,signal.created',
      '--families',
      'procurement',
    ]);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created).toMatchObject({ events: ['alert_match.created', 'signal.created'], families: ['procurement'] });
    const listed = await run(['list', '--account', String(account)]);
    expect(listed.map((e: any) => e.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('refuses bad input with its reason', async () => {
    const base = ['create', '--account', String(account), '--events', 'alert_match.created', '--url'];
    expect(await refusal([...base, url('/x')], false)).toMatch(/must be https.*WEBHOOK_ALLOW_LOOPBACK/);
    expect(await refusal([...base, 'https://192.168.0.10/x'])).toMatch(/refused URL: .*private/);
    expect(await refusal([...base, 'not a url'])).toMatch(/not a URL/);
    expect(
      await refusal(['create', '--account', String(account), '--url', url('/x'), '--events', 'contract.created']),
    ).toMatch(/unknown event "contract.created"/);
    expect(await refusal(['create', '--account', '999999', '--url', url('/x'), '--events', 'signal.created'])).toMatch(
      /no account 999999/,
    );
    expect(await refusal(['rotate-secret', '999999'])).toMatch(/no webhook endpoint 999999/);
  });

  it('rotates, disables, enables and deletes', async () => {
    const { id, secret } = await run([
      'create',
      '--account',
      String(account),
      '--url',
      url('/r'),
      '--events',
      'signal.created',
    ]);
    const rotated = await run(['rotate-secret', String(id)]);
    expect(rotated.secret).not.toBe(secret);
    expect(Date.parse(rotated.old_secret_signs_until) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect((await store.webhooks.signingSecrets(id, new Date().toISOString())).map((s) => s.secret)).toEqual([
      rotated.secret,
      secret,
    ]);
    await run(['disable', String(id)]);
    expect((await store.webhooks.getEndpoint(id))?.disabled_reason).toMatch(/operator/);
    await run(['enable', String(id)]);
    expect((await store.webhooks.getEndpoint(id))?.enabled).toBe(true);
    await run(['delete', String(id)]);
    expect(await store.webhooks.getEndpoint(id)).toBeUndefined();
  });

  it('delivers, lists the deliveries with their attempts, and redelivers with the same webhook-id', async () => {
    const { id } = await run([
      'create',
      '--account',
      String(account),
      '--url',
      url('/d'),
      '--events',
      'alert_match.created',
    ]);
    await runAlertMatching(store, { now: new Date() });
    const summary = await run(['deliver']);
    expect(summary.delivered).toBeGreaterThan(0);
    const deliveries = await run(['deliveries', String(id)]);
    const matches = await store.listAlertMatches(
      { accountId: account, since: '1970-01-01T00:00:00Z' },
      { after: undefined, limit: 100 },
    );
    // One per match: the account's other endpoint (the first test's) has its own.
    expect(deliveries.length).toBe(matches.length);
    expect(deliveries[0]).toMatchObject({
      state: 'delivered',
      attempts: 1,
      log: [{ status: 200, response_head: 'ok' }],
    });
    await run(['redeliver', String(deliveries[0].id)]);
    await run(['deliver']);
    expect(ids.filter((m) => m === deliveries[0].message_id)).toHaveLength(2);
  });
});
