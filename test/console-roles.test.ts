/**
 * Roles and accounts are enforced on the server (docs/console.md, Roles): each refusal is asked for directly,
 * the way someone editing a form or a URL would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../src/admin/keys.js';
import { ConsoleClient, consoleUser } from './helpers/console.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let owner: ConsoleClient;
let member: ConsoleClient;
let admin: ConsoleClient;
let otherOwner: ConsoleClient;

async function signedIn(accountId: number, email: string, role: 'owner' | 'admin' | 'member'): Promise<ConsoleClient> {
  const user = await consoleUser(t, { accountId, email, role });
  const c = new ConsoleClient(t);
  await c.signIn(user.email, user.password);
  await c.get('/console/keys');
  return c;
}

beforeAll(async () => {
  t = await startTestApp();
  owner = await signedIn(t.accounts.premium, 'owner@roles.example', 'owner');
  member = await signedIn(t.accounts.premium, 'member@roles.example', 'member');
  admin = await signedIn(t.accounts.premium, 'admin@roles.example', 'admin');
  otherOwner = await signedIn(t.accounts.free, 'owner@other.example', 'owner');
});

afterAll(async () => {
  await t?.close();
});

describe('API keys', () => {
  it('lets a member and an admin read the keys but not create one (403, nothing created)', async () => {
    for (const c of [member, admin]) {
      const page = await c.get('/console/keys');
      expect(page.status).toBe(200);
      expect(page.body).not.toContain('Create key');
      const before = (await t.store.listApiKeys(t.accounts.premium)).length;
      const res = await c.post('/console/keys', { label: 'sneaky', scopes: 'indicators:read' });
      expect(res.status).toBe(403);
      expect((await t.store.listApiKeys(t.accounts.premium)).length).toBe(before);
    }
  });

  it('refuses to revoke another account’s key by its id (404, the key keeps working)', async () => {
    const victim = await createKey(t.store, { accountId: t.accounts.premium, label: 'victim' }, new Date(t.clock.now));
    expect((await otherOwner.get(`/console/keys/${victim.key.id}/revoke`)).status).toBe(404);
    expect((await otherOwner.post(`/console/keys/${victim.key.id}/revoke`)).status).toBe(404);
    expect((await t.get('/v1/me', { key: victim.secret })).status).toBe(200);
    expect((await member.post(`/console/keys/${victim.key.id}/revoke`)).status).toBe(403);
  });

  it('offers only the plan’s scopes and refuses any other', async () => {
    const indicators = await signedIn(t.accounts.indicatorsOnly, 'owner@indicadores.example', 'owner');
    const page = await indicators.get('/console/keys');
    expect(page.body).toContain('value="indicators:read"');
    expect(page.body).not.toContain('value="procurement:read"');
    const res = await indicators.post('/console/keys', { label: 'too much', scopes: ['indicators:read', 'procurement:read'] });
    expect(res.status).toBe(400);
    expect(res.body).toContain('Your plan does not include procurement:read');
    expect((await t.store.listApiKeys(t.accounts.indicatorsOnly)).some((k) => k.label === 'too much')).toBe(false);
  });

  it('lets the owner create a key with a subset of scopes and shows its secret once', async () => {
    const res = await owner.post('/console/keys', { label: 'reports', scopes: ['signals:read'] });
    expect(res.status).toBe(200);
    const secret = /data-secret>(sk_live_[A-Za-z0-9]+)</.exec(res.body)?.[1];
    expect(secret).toBeDefined();
    const me = await t.get('/v1/me', { key: secret });
    expect(me.json.scopes).toEqual(['signals:read']);
    expect((await owner.get('/console/keys')).body).not.toContain(String(secret));
  });
});
