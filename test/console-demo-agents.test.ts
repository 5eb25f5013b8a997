/**
 * The demo's company agents are generated examples with invented companies: the console marks them "demo", with a
 * word on what that means, on the company agents page, their own pages and the marketplace, and marks no other
 * company's agent so (docs/console.md, Pages).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DEPLOYMENTS, ensureDemoAgents } from '../src/agents/demo/demo-agents.js';
import { ensureDemoAccount } from '../src/demo/demo-account.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let demoOwner: ConsoleClient;
let companyOwner: ConsoleClient;
const PILL = '<span class="pill demo">demo</span>';
const NOTE = 'marks an example agent the demo starts';
/** The row of a table, or the card, that holds `slug`. */
const partWith = (body: string, slug: string, by = '<tr') => body.split(by).find((part) => part.includes(slug)) ?? '';

beforeAll(async () => {
  t = await startTestApp();
  const now = new Date(t.clock.now);
  const demo = await ensureDemoAccount(t.store, now);
  await ensureDemoAgents(t.store, now, demo.id);
  const user = await consoleUser(t, { accountId: demo.id, email: 'owner@demo-agents.example', role: 'owner' });
  demoOwner = new ConsoleClient(t);
  await demoOwner.signIn(user.email, user.password);
  const company = await consoleUser(t, { accountId: t.accounts.premium, email: 'eva@real.example', role: 'owner' });
  companyOwner = new ConsoleClient(t);
  await companyOwner.signIn(company.email, company.password);
  // A company's own agent, published: never marked.
  const { SOLAR_INSTALLER } = await import('../src/agents/demo/solar-installer.js');
  await companyOwner.get('/console/agents');
  const file = JSON.stringify({ ...SOLAR_INSTALLER, slug: 'real-solar', name: 'Real Solar' });
  expect((await companyOwner.post('/console/agents/upload', { file })).status).toBe(303);
  expect((await companyOwner.post('/console/agents/real-solar/publish')).status).toBe(303);
});

afterAll(async () => {
  await t?.close();
});

describe('the demo agents', () => {
  it('are marked demo, with what it means, on the company agents page and on each one’s page', async () => {
    const list = (await demoOwner.get('/console/agents')).body;
    expect(list).toContain(NOTE);
    for (const spec of DEMO_DEPLOYMENTS) {
      expect(partWith(list, `<code>${spec.slug}</code>`)).toContain(PILL);
      const own = (await demoOwner.get(`/console/agents/${spec.slug}`)).body;
      expect(own).toContain(NOTE);
      expect(partWith(own, '<th>Status</th><td>')).toContain(PILL);
    }
  });

  it('are marked demo on the marketplace; a company’s own agent is not, nor is its page', async () => {
    const market = (await companyOwner.get('/console/marketplace')).body;
    expect(market).toContain(NOTE);
    for (const spec of DEMO_DEPLOYMENTS)
      expect(partWith(market, `id="agent-${spec.slug}"`, '<article')).toContain(PILL);
    expect(partWith(market, 'id="agent-real-solar"', '<article')).not.toContain(PILL);
    const own = (await companyOwner.get('/console/agents')).body;
    expect(own).not.toContain(PILL);
    expect(own).not.toContain(NOTE);
    expect((await companyOwner.get('/console/agents/real-solar')).body).not.toContain(PILL);
  });
});
