/**
 * An alert from end to end (docs/alerts.md, docs/pipeline.md, docs/webhooks.md), on a copy of the demo store
 * (SQLite, or PostgreSQL with MUNIDATA_TEST_BACKEND=postgres) served by the compiled `munidata serve` with its own
 * pipeline every 2 s: a person signs in to the console in Chromium, writes a keyword rule, previews it (a contract
 * imported before shows) and saves it; a matching contract is then imported with `munidata import base-contracts`
 * from a file in the Portal BASE format; the first cycle that starts after the import puts its match in the
 * console's matches page, in `GET /v1/alert-matches`, in the rule's Atom feed (the URL the console's Feed URL
 * button gives) and delivers it to a receiver that verifies the signature with `standardwebhooks`. Pages are saved
 * under screenshots/alerts-end-to-end/ (not committed) for a person to look at.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import type { Store } from '../src/store/store.js';
import { createWebhookEndpoint } from '../src/webhooks/endpoints.js';
import { storeEnv } from './helpers/backend.js';
import { signInInBrowser } from './helpers/browser-sign-in.js';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { type Instance, killInstances, requireBuild, runCli, startInstance } from './helpers/deployment.js';
import { freePort } from './helpers/free-port.js';
import { testDir } from './helpers/temp-dir.js';
import { copyDemoStore } from './helpers/test-app.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';

const SHOTS = resolve(import.meta.dirname, '../screenshots/alerts-end-to-end');
const INTERVAL_S = 2;
/** A word in no demo contract: what the rule looks for. */
const WORD = 'aerostato';

let store: Store;
let env: Record<string, string>;
let serve: Instance;
let base: string;
let browser: Browser;
let page: Page;
let receiver: WebhookReceiver;
let key: string;
const pageErrors: string[] = [];

/** A contract as Portal BASE publishes it (test/fixtures/base-contracts-sample.json), dated today. */
function baseContract(id: string, object: string) {
  const today = new Date().toISOString().slice(0, 10).split('-').reverse().join('/');
  return {
    idcontrato: id,
    tipoContrato: ['Aquisição de serviços'],
    tipoprocedimento: 'Ajuste Direto Regime Geral',
    objectoContrato: object,
    adjudicante: ['506899250 - Município de Vila Nova da Barquinha'],
    adjudicatarios: ['510858287 - JARDIM ESPONTÂNEO - ARQUITECTURA PAISAGISTA UNIPESSOAL LDA'],
    dataPublicacao: today,
    dataCelebracaoContrato: today,
    precoContratual: 18_450.0,
    cpv: ['79341000-6 - Serviços de publicidade'],
    prazoExecucao: 30,
    localExecucao: ['Portugal, Santarém, Vila Nova da Barquinha'],
    fundamentacao: 'Artigo 20.º, n.º 1, alínea d) do Código dos Contratos Públicos',
    ProcedimentoCentralizado: 'Não',
    DescrAcordoQuadro: 'NULL',
  };
}

/** `munidata import base-contracts` of a file holding `contract`. */
async function importContract(contract: ReturnType<typeof baseContract>): Promise<void> {
  const file = join(testDir('munidata-e2e-'), `contratos-${contract.idcontrato}.json`);
  writeFileSync(file, JSON.stringify([contract]));
  const report = JSON.parse(await runCli(['--json', 'import', 'base-contracts', file], env));
  expect(report.written.contracts).toMatchObject({ inserted: 1 });
}

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** Resolves once a whole cycle has run after `since`: a detection started after it, and the delivery after that. */
async function cycleAfter(since: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const steps = new Map((await store.pipeline.listPipelineSteps()).map((s) => [s.step, s]));
    const detected = Date.parse(steps.get('detect')?.last_started_at ?? '') || 0;
    const delivered = Date.parse(steps.get('deliver')?.last_success_at ?? '') || 0;
    if (detected > since && delivered > detected) return;
    if (Date.now() > deadline) throw new Error(`no whole cycle after the import:\n${serve.output.stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  requireBuild();
  mkdirSync(SHOTS, { recursive: true });
  const copy = copyDemoStore();
  store = copy.store;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const now = new Date();
  const account = (
    await store.createAccount({ name: 'Redação Lda', plan_code: 'premium', beta: false, now: now.toISOString() })
  ).id;
  key = (await createKey(store, { accountId: account }, now)).secret;
  const person = await consoleUser(
    { store, clock: { now: now.getTime(), advance() {} } },
    { accountId: account, email: 'ines@redacao.example', role: 'owner' },
  );
  receiver = await WebhookReceiver.start();
  receiver.secret = (
    await createWebhookEndpoint(
      store,
      { account, url: receiver.url(), events: ['alert_match.created'] },
      { now, allowLoopback: true },
    )
  ).secret;
  env = { ...storeEnv(copy.dbPath), REDIS_URL: '' };
  await importContract(baseContract('99000001', `Aluguer de ${WORD} para a feira anual`));
  serve = await startInstance(port, {
    ...env,
    BASE_URL: base,
    PIPELINE_INTERVAL_S: String(INTERVAL_S),
    WEBHOOK_ALLOW_LOOPBACK: '1',
  });

  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  await signInInBrowser(page, base, person);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  killInstances();
  await receiver?.close();
  await store?.close();
});

describe('an alert from the console to a webhook', () => {
  let feedUrl = '';

  it('a person writes a keyword rule, previews it and saves it, and takes its feed URL', async () => {
    await page.click('nav >> text=Alerts');
    await page.click('text=New rule…');
    await page.fill('#name', 'Aeróstatos');
    await page.fill('#keywords', WORD);
    await page.click('button[value=preview]');
    const preview = page.locator('section[aria-labelledby=preview]');
    await expect(preview.innerText()).resolves.toContain(`Aluguer de ${WORD} para a feira anual`);
    await shot('01-preview');
    await page.click('button[value=save]');
    await page.locator('.notice', { hasText: 'Saved the rule' }).waitFor();
    await page.click('button[aria-label="New feed URL for Aeróstatos"]');
    const notice = await page.locator('.notice').innerText();
    feedUrl = /(http\S+\/feeds\/alerts\/mdfeed_\S+)/.exec(notice)?.[1] ?? '';
    expect(feedUrl.startsWith(`${base}/feeds/alerts/`), notice).toBe(true);
    await shot('02-saved');
  }, 60_000);

  it('a matching contract imported is, a cycle later, in the console, the API, the feed and the receiver', async () => {
    const object = `Voo cativo de ${WORD} no dia do município`;
    await importContract(baseContract('99000002', object));
    const imported = Date.now();
    await cycleAfter(imported);

    // The contract, and what detection said of it (a rule on every source also reads the signals).
    const api = await fetch(`${base}/v1/alert-matches`, { headers: { authorization: `Bearer ${key}` } });
    expect(api.status).toBe(200);
    const items = ((await api.json()) as { items: { id: number; title: string; source_type: string }[] }).items;
    const matches = items.filter((m) => m.title.includes(object));
    expect(
      matches.map((m) => m.source_type),
      JSON.stringify(items),
    ).toContain('procurement_contract');

    await page.goto(`${base}/console/alerts/matches`);
    await expect(page.locator('tbody tr', { hasText: object }).count()).resolves.toBe(matches.length);
    await shot('03-matches');

    const feed = await fetch(feedUrl);
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain(object);

    for (const match of matches) {
      const delivered = receiver.received.filter((r) => r.body.data.id === match.id);
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({ verified: true, body: { type: 'alert_match.created' } });
      expect(delivered[0].body.data.title).toBe(match.title);
    }
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(pageErrors).toEqual([]);
  }, 180_000);
});
