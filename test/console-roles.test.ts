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
    const res = await indicators.post('/console/keys', {
      label: 'too much',
      scopes: ['indicators:read', 'procurement:read'],
    });
    expect(res.status).toBe(422);
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

describe('company agents', () => {
  let slug: string;
  let credentialId: number;

  beforeAll(async () => {
    // A deployment of the premium account, uploaded by its admin, with one credential.
    const { SOLAR_INSTALLER } = await import('../src/agents/demo/solar-installer.js');
    slug = 'roles-solar';
    await admin.get('/console/agents'); // the page draws the form, with its one-use token
    const res = await admin.post('/console/agents/upload', { file: JSON.stringify({ ...SOLAR_INSTALLER, slug }) });
    expect(res.status).toBe(303);
    await admin.post(`/console/agents/${slug}/publish`);
    await admin.get(`/console/agents/${slug}`); // the page draws the form, with its one-use token
    const created = await admin.post(`/console/agents/${slug}/credentials`, { channel: 'a2a', label: 'ops' });
    expect(created.status).toBe(200);
    const deployment = await t.store.agents.getDeployment(slug);
    credentialId = (await t.store.agents.listAgentCredentials(Number(deployment?.id)))[0].id;
  });

  it('keeps members out of the company agents pages (403)', async () => {
    expect((await member.get('/console/agents')).status).toBe(403);
    expect((await member.get(`/console/agents/${slug}`)).status).toBe(403);
    expect((await member.post(`/console/agents/${slug}/pause`)).status).toBe(403);
  });

  it('shows an admin of another account none of this account’s deployments, by list or by slug (404)', async () => {
    const otherAdmin = await signedIn(t.accounts.beta, 'admin@beta-roles.example', 'admin');
    expect((await otherAdmin.get('/console/agents')).body).not.toContain(slug);
    expect((await otherAdmin.get(`/console/agents/${slug}`)).status).toBe(404);
    expect((await otherAdmin.post(`/console/agents/${slug}/pause`)).status).toBe(404);
    expect((await t.store.agents.getDeployment(slug))?.status).toBe('live');
    expect((await otherAdmin.post(`/console/agents/${slug}/credentials`, { channel: 'a2a' })).status).toBe(404);
    expect((await otherAdmin.get(`/console/agents/${slug}/credentials/${credentialId}/revoke`)).status).toBe(404);
    expect((await otherAdmin.post(`/console/agents/${slug}/credentials/${credentialId}/revoke`)).status).toBe(404);
    // Its own deployment's page with this account's credential id: not found either.
    const { ENGINEERING_CONSULTANCY } = await import('../src/agents/demo/engineering-consultancy.js');
    await otherAdmin.post('/console/agents/upload', {
      file: JSON.stringify({ ...ENGINEERING_CONSULTANCY, slug: 'beta-eng' }),
    });
    expect((await otherAdmin.get(`/console/agents/beta-eng/credentials/${credentialId}/revoke`)).status).toBe(404);
    expect((await otherAdmin.post(`/console/agents/beta-eng/credentials/${credentialId}/revoke`)).status).toBe(404);
    const deployment = await t.store.agents.getDeployment(slug);
    expect((await t.store.agents.listAgentCredentials(Number(deployment?.id)))[0].revoked_at).toBeNull();
  });

  it('refuses an upload that takes another account’s slug', async () => {
    const { SOLAR_INSTALLER } = await import('../src/agents/demo/solar-installer.js');
    const res = await otherOwner.post('/console/agents/upload', {
      file: JSON.stringify({ ...SOLAR_INSTALLER, slug, name: 'Hijack' }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toContain('taken by another company');
    const deployment = await t.store.agents.getDeployment(slug);
    expect(JSON.parse(String(deployment?.spec)).name).not.toBe('Hijack');
  });

  const marketplaceRoles =
    'lets a member of another account see the marketplace but not license; an owner licenses; the seller alone revokes';
  it(marketplaceRoles, async () => {
    const buyerMember = await signedIn(t.accounts.beta, 'member@beta-roles.example', 'member');
    expect((await buyerMember.get('/console/marketplace')).body).toContain(`agent-${slug}`);
    expect((await buyerMember.post(`/console/marketplace/${slug}/license`)).status).toBe(403);
    const buyerOwner = await signedIn(t.accounts.beta, 'owner@beta-roles.example', 'owner');
    const licensed = await buyerOwner.post(`/console/marketplace/${slug}/license`);
    expect(licensed.status).toBe(200);
    const deployment = await t.store.agents.getDeployment(slug);
    const [licence] = await t.store.console.listLicencesOfDeployments([Number(deployment?.id)]);
    expect(licence.buyer_account_id).toBe(t.accounts.beta);
    // The buyer cannot revoke it through the seller's page, nor can anyone but the seller.
    const licencePage = `/console/agents/${slug}/licences/${licence.id}/revoke`;
    for (const c of [buyerOwner, otherOwner]) {
      expect((await c.get(licencePage)).status).toBe(404);
      expect((await c.post(licencePage)).status).toBe(404);
    }
    expect((await t.store.console.getLicence(licence.id))?.revoked_at).toBeNull();
    expect((await admin.post(licencePage)).status).toBe(303);
    expect((await t.store.console.getLicence(licence.id))?.revoked_at).not.toBeNull();
    // Revoked, it is still none of theirs: the same 404, not the seller's page saying since when.
    for (const c of [buyerOwner, otherOwner]) {
      const res = await c.get(licencePage);
      expect(res.status).toBe(404);
      expect(res.body).not.toContain('revoked already');
    }
    expect((await admin.get(licencePage)).body).toContain('revoked already');
    // An account does not license its own agent.
    expect((await admin.post(`/console/marketplace/${slug}/license`)).status).toBe(422);
  });
});

describe('account', () => {
  it('lets only the owner add a member, and only in their own account', async () => {
    expect((await admin.post('/console/account/users', { email: 'x@roles.example', role: 'owner' })).status).toBe(403);
    expect((await member.post('/console/account/users', { email: 'y@roles.example', role: 'member' })).status).toBe(
      403,
    );
    const res = await owner.post('/console/account/users', {
      email: 'new@roles.example',
      role: 'member',
      account_id: String(t.accounts.beta),
    });
    expect(res.status).toBe(200);
    expect(res.body).toContain('/console/set-password?token=');
    expect((await t.store.console.findUserByEmail('new@roles.example'))?.account_id).toBe(t.accounts.premium);
  });

  it('keeps what the owner typed when it refuses a member (an email already taken)', async () => {
    await owner.get('/console/account');
    const res = await owner.post('/console/account/users', {
      email: 'owner@other.example',
      name: 'Maria Silva',
      role: 'admin',
    });
    expect(res.status).toBe(422);
    expect(res.body).toContain('A user with the email owner@other.example exists already.');
    expect(res.body).toMatch(/<input id="email" name="email" type="email" value="owner@other.example"/);
    expect(res.body).toMatch(/<input id="name" name="name" type="text" maxlength="100" value="Maria Silva">/);
    expect(res.body).toContain('<option value="admin" selected>admin</option>');
    expect(res.body).not.toContain('<option value="member" selected>');
  });

  it('says a refused member is of this account already, names “Role”, and tells nothing of others', async () => {
    await owner.get('/console/account');
    const ours = await owner.post('/console/account/users', { email: 'member@roles.example', role: 'member' });
    const mine = await t.store.console.findUserByEmail('member@roles.example');
    expect(mine?.account_id).toBe(t.accounts.premium);
    expect(ours.status).toBe(422);
    expect(ours.body).toContain('A user with the email member@roles.example exists already in this account.');
    const theirs = await owner.post('/console/account/users', { email: 'owner@other.example', role: 'member' });
    expect(theirs.body).toContain('exists already.');
    expect(theirs.body).not.toMatch(/another account|account \d/);
    const king = await owner.post('/console/account/users', { email: 'king@roles.example', role: 'king' });
    expect(king.status).toBe(422);
    expect(king.body).toContain('“Role” must be one of owner, admin, member; got &quot;king&quot;.');
    expect(king.body).not.toContain('--role');
  });

  it('refuses to disable a user of another account by id (404)', async () => {
    const stranger = await t.store.console.findUserByEmail('owner@other.example');
    expect((await owner.post(`/console/account/users/${stranger?.id}/disable`)).status).toBe(404);
    expect((await t.store.console.getUser(Number(stranger?.id)))?.disabled_at).toBeNull();
  });

  it('changes a password only with the current one', async () => {
    const c = await signedIn(t.accounts.premium, 'pw@roles.example', 'member');
    await c.get('/console/account');
    expect(
      (
        await c.post('/console/account/password', {
          current: 'wrong',
          password: 'a brand new password',
          confirm: 'a brand new password',
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await c.post('/console/account/password', {
          current: 'correct horse battery',
          password: 'a brand new password',
          confirm: 'a brand new password',
        })
      ).status,
    ).toBe(303);
    expect((await new ConsoleClient(t, '10.9.0.1').signIn('pw@roles.example', 'a brand new password')).status).toBe(
      303,
    );
  });
});
