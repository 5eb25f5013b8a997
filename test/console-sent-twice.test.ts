/**
 * A console form sent twice does what it asks once (docs/console.md, "Sent twice"): a reload of the answer to
 * "Create key", "Register" or "Rotate the secret" (whose answer shows the secret once) sends the same one-use token
 * again and creates nothing, saying so on the list; the other changes (revoke, turn off and on, redeliver,
 * disconnect an app) answer with a redirect, so a reload is a GET; deleting an alert rule or an endpoint gone
 * already (or another account's) redirects to the list, saying it was deleted already, and so does its confirmation
 * page, opened late (a stale link, a second tab); an app likewise. And the keys form keeps what was typed when it
 * is refused (422), shows a key's last day as chosen, and the confirmation page of a key, agent credential or
 * licence revoked already says since when, with nothing to press; the webhook form's messages read as sentences.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAlertRule, listAccountRules } from '../src/admin/alert-rules.js';
import { listCredentials } from '../src/agents/admin.js';
import { listConnectedApps } from '../src/oauth/grants.js';
import { createWebhookEndpoint } from '../src/webhooks/endpoints.js';
import { ConsoleClient, type ConsoleResponse, consoleUser } from './helpers/console.js';
import { connectedClient } from './helpers/oauth-flow.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let owner: ConsoleClient;

const secretIn = (body: string) => /data-secret>([^<]+)</.exec(body)?.[1];
const keyLabels = async () => (await t.store.listApiKeys(t.accounts.premium)).map((k) => k.label);
/** The visible text of a page's notices and errors, tags removed. */
const said = (body: string) =>
  [...body.matchAll(/<p class="(?:notice|error)"[^>]*>([\s\S]*?)<\/p>/g)].map((m) => m[1].replace(/<[^>]+>/g, ''));

/**
 * A change answered with Post/Redirect/Get: 303 to `page` with `?done=…`, where the notice `notice` is said once
 * (and nothing else); the page at its own address (a reload once the script took the query away) says nothing.
 */
async function redirectsSaying(res: ConsoleResponse, page: string, notice: string | RegExp, client = owner) {
  expect(res.status, res.body.slice(0, 300)).toBe(303);
  const location = String(res.headers.location);
  expect(location.startsWith(`${page}?done=`), location).toBe(true);
  const shown = said((await client.get(location)).body);
  expect(shown).toHaveLength(1);
  if (typeof notice === 'string') expect(shown[0]).toBe(notice);
  else expect(shown[0]).toMatch(notice);
  expect(said((await client.get(page)).body)).toEqual([]);
}

beforeAll(async () => {
  t = await startTestApp();
  const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'ana@twice.example', role: 'owner' });
  owner = new ConsoleClient(t);
  await owner.signIn(user.email, user.password);
});

afterAll(async () => {
  await t?.close();
});

describe('API keys', () => {
  it('creates one key for a form sent twice; the second send shows no secret, saying nothing was made', async () => {
    await owner.get('/console/keys');
    const form = { _once: owner.once, label: 'sent twice', scopes: ['signals:read'] };
    const first = await owner.post('/console/keys', form);
    expect(first.status).toBe(200);
    const secret = secretIn(first.body);
    expect(secret).toMatch(/^sk_live_/);

    const again = await owner.post('/console/keys', form); // the browser's reload of the answer
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe('/console/keys?done=resent');
    const list = await owner.get(String(again.headers.location));
    expect(said(list.body).join(' ')).toContain('That form had been sent already, so nothing new was created');
    expect(list.body).not.toContain(String(secret));
    expect(secretIn(list.body)).toBeUndefined();
    expect((await keyLabels()).filter((l) => l === 'sent twice')).toHaveLength(1);

    // The form drawn again (a new token) creates a key, as it should.
    expect((await owner.post('/console/keys', { label: 'sent twice', scopes: ['signals:read'] })).status).toBe(200);
    expect((await keyLabels()).filter((l) => l === 'sent twice')).toHaveLength(2);
  });

  it('refuses a form without its one-use token (an out-of-date page), creating nothing', async () => {
    const before = (await keyLabels()).length;
    const res = await owner.post('/console/keys', { _once: null, label: 'no token', scopes: ['signals:read'] });
    expect(res.status).toBe(400);
    expect(res.body).toContain('This form is out of date');
    expect((await keyLabels()).length).toBe(before);
  });

  it('keeps the label, the scopes and the last day typed when the form is refused, and spends no token', async () => {
    await owner.get('/console/keys');
    const form = { _once: owner.once, label: 'late', scopes: ['signals:read'], expires: '2020-01-01' };
    const refused = await owner.post('/console/keys', form);
    expect(refused.status).toBe(422);
    expect(said(refused.body)).toContain('The last day 2020-01-01 is in the past.');
    expect(refused.body).toMatch(/id="label"[^>]*value="late"/);
    expect(refused.body).toMatch(/id="expires"[^>]*value="2020-01-01"/);
    const boxes = [...refused.body.matchAll(/name="scopes" value="([^"]+)"( checked)?/g)];
    expect(boxes.length).toBeGreaterThan(2); // a new form has every one ticked
    expect(boxes.filter((m) => m[2]).map((m) => m[1])).toEqual(['signals:read']);
    // The refused send gave its token back: the same form, corrected, goes through.
    const fixed = await owner.post('/console/keys', { ...form, expires: '2027-06-30' });
    expect(fixed.status).toBe(200);
    expect(secretIn(fixed.body)).toMatch(/^sk_live_/);
  });

  it('shows the last day a key works as it was chosen', async () => {
    const row = (await owner.get('/console/keys')).body.split('<tr').find((r) => r.includes('late'));
    expect(row).toContain('>2027-06-30</time>');
    expect(row).not.toContain('2027-07-01');
  });

  it('revokes with a redirect to the list; a revoked key’s confirmation page has nothing to confirm', async () => {
    const key = (await t.store.listApiKeys(t.accounts.premium)).find((k) => k.label === 'late');
    if (!key) throw new Error('no key "late"');
    const confirm = await owner.get(`/console/keys/${key.id}/revoke`);
    expect(confirm.body).toContain('Revoke this key');
    const revoked = await owner.post(`/console/keys/${key.id}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.location).toBe(`/console/keys?done=revoked&key=${key.id}`);
    const list = await owner.get(String(revoked.headers.location));
    expect(said(list.body).join(' ')).toMatch(/^Revoked the key sk_live_\S+ \(“late”\): it no longer works\.$/);
    expect(said((await owner.get('/console/keys')).body)).toEqual([]);
    // Its status sits in a column with a heading of its own, which a phone prints beside it; Revoke… is gone.
    expect(list.body).toContain('<th>Last day</th><th>Status</th>');
    const row = list.body.split('<tr').find((r) => r.includes('<td>late</td>')) ?? '';
    expect(row).toMatch(/<td><span class="pill revoked">revoked <time[^>]*>[^<]+<\/time><\/span><\/td>\s*<td><\/td>/);

    const again = await owner.get(`/console/keys/${key.id}/revoke`);
    expect(again.body).toContain('is revoked already');
    expect(again.body).not.toContain('Revoke this key');
    expect(again.body).not.toContain('This cannot be undone');
  });
});

describe('webhooks', () => {
  it('registers one endpoint for a form sent twice; the second send says nothing was registered', async () => {
    await owner.get('/console/webhooks');
    const form = { _once: owner.once, url: 'https://1.1.1.1/hooks/twice', events: 'alert_match.created' };
    const first = await owner.post('/console/webhooks', form);
    expect(first.status).toBe(200);
    expect(secretIn(first.body)).toMatch(/^whsec_/);
    const again = await owner.post('/console/webhooks', form);
    expect(again.status).toBe(303);
    const list = await owner.get(String(again.headers.location));
    expect(said(list.body).join(' ')).toContain('That form had been sent already, so nothing new was registered');
    expect(secretIn(list.body)).toBeUndefined();
    const endpoints = await t.store.webhooks.listEndpoints(t.accounts.premium);
    expect(endpoints.filter((e) => e.url === form.url)).toHaveLength(1);
  });

  it('rotates once for a form sent twice, and turns off and on with redirects', async () => {
    const [endpoint] = await t.store.webhooks.listEndpoints(t.accounts.premium);
    const page = `/console/webhooks/${endpoint.id}`;
    await owner.get(page);
    const form = { _once: owner.once };
    const rotated = await owner.post(`${page}/rotate`, form);
    const shown = secretIn(rotated.body);
    expect(shown).toMatch(/^whsec_/);
    const signing = async () =>
      (await t.store.webhooks.signingSecrets(endpoint.id, new Date(t.clock.now).toISOString())).map((r) => r.secret);
    expect(await signing()).toHaveLength(2); // the registered one, signing alongside, and the one shown
    expect(await signing()).toContain(shown);
    const again = await owner.post(`${page}/rotate`, form);
    expect(again.status).toBe(303);
    expect(said((await owner.get(String(again.headers.location))).body).join(' ')).toContain(
      'so the secret was not rotated again',
    );
    expect(await signing()).toHaveLength(2);

    const off = await owner.post(`${page}/disable`);
    expect(off.status).toBe(303);
    expect(said((await owner.get(String(off.headers.location))).body)).toContain(
      'The endpoint is off: its deliveries wait until it is turned on again.',
    );
    const on = await owner.post(`${page}/enable`);
    expect(on.status).toBe(303);
    expect((await t.store.webhooks.getEndpoint(endpoint.id))?.enabled).toBe(true);
  });

  it('says why an address is refused in one sentence, naming it once', async () => {
    await owner.get('/console/webhooks');
    const res = await owner.post('/console/webhooks', {
      url: 'https://127.0.0.1/hooks',
      events: 'alert_match.created',
    });
    expect(res.status).toBe(422);
    expect(said(res.body)).toEqual(['Refused URL: 127.0.0.1 is a loopback address.']);
  });

  it('asks for an event to be ticked when none is, in the form’s words', async () => {
    await owner.get('/console/webhooks');
    const res = await owner.post('/console/webhooks', { url: 'https://1.1.1.1/hooks/none' });
    expect(res.status).toBe(422);
    expect(said(res.body)).toEqual(['Tick at least one event the endpoint takes.']);
  });

  it('refuses a plain http URL in the account’s words, not the operator’s setting, keeping the URL', async () => {
    await owner.get('/console/webhooks');
    const url = 'http://hooks.example.pt/munidata';
    const res = await owner.post('/console/webhooks', { url, events: 'alert_match.created' });
    expect(res.status).toBe(422);
    expect(said(res.body)).toEqual([
      'Refused URL: a webhook URL must start with https://: events are only sent over an encrypted connection.',
    ]);
    expect(res.body).not.toMatch(/WEBHOOK_ALLOW_LOOPBACK|operator/);
    expect(res.body).toContain(`value="${url}"`);
  });
});

describe('webhook endpoint deleted', () => {
  it('answers with a redirect to the list, which names the endpoint once', async () => {
    const endpoint = (await t.store.webhooks.listEndpoints(t.accounts.premium)).find((e) => e.url.endsWith('/twice'));
    if (!endpoint) throw new Error('no endpoint');
    expect((await owner.get(`/console/webhooks/${endpoint.id}/delete`)).body).toContain('Delete this endpoint');
    const deleted = await owner.post(`/console/webhooks/${endpoint.id}/delete`);
    await redirectsSaying(deleted, '/console/webhooks', `Deleted the endpoint ${endpoint.url} with its deliveries.`);
    expect(await t.store.webhooks.getEndpoint(endpoint.id)).toBeUndefined();
    // Sent again (a second tab): it is gone, which is what was asked, so back to the list saying so.
    const again = await owner.post(`/console/webhooks/${endpoint.id}/delete`);
    await redirectsSaying(again, '/console/webhooks', 'The endpoint was already deleted.');
    // Its confirmation page opened late (a stale link, a second tab): nothing to confirm, the list says the same.
    const confirm = await owner.get(`/console/webhooks/${endpoint.id}/delete`);
    expect(confirm.headers.location).toBe('/console/webhooks?done=deleted-already');
    await redirectsSaying(confirm, '/console/webhooks', 'The endpoint was already deleted.');
  });

  it('says the same of another account endpoint, and leaves it there', async () => {
    const theirs = await createWebhookEndpoint(
      t.store,
      { account: t.accounts.beta, url: 'https://1.1.1.1/hooks/theirs', events: ['alert_match.created'] },
      { now: new Date(t.clock.now), allowLoopback: false },
    );
    await owner.get('/console/webhooks');
    const confirm = await owner.get(`/console/webhooks/${theirs.endpoint.id}/delete`);
    await redirectsSaying(confirm, '/console/webhooks', 'The endpoint was already deleted.');
    expect(confirm.headers.location).toBe('/console/webhooks?done=deleted-already'); // nothing of theirs told
    const res = await owner.post(`/console/webhooks/${theirs.endpoint.id}/delete`);
    await redirectsSaying(res, '/console/webhooks', 'The endpoint was already deleted.');
    expect(res.headers.location).toBe('/console/webhooks?done=deleted-already'); // nothing of theirs told
    expect(await t.store.webhooks.getEndpoint(theirs.endpoint.id)).toMatchObject({ url: theirs.endpoint.url });
  });
});

describe('alert rules and subscriptions', () => {
  it('turns a rule off and on, stops its feed and deletes it, each with a redirect saying what was done', async () => {
    const rule = await createAlertRule(
      t.store,
      { account: t.accounts.premium, name: 'Redirected', type: 'keyword', keywords: ['ponte'] },
      new Date(t.clock.now),
    );
    await owner.get('/console/alerts');
    const off = await owner.post(`/console/alerts/${rule.id}/disable`);
    await redirectsSaying(off, '/console/alerts', '“Redirected” is off: it matches nothing until turned on again.');
    expect((await t.store.getAlertRule(rule.id))?.enabled).toBe(false);
    const on = await owner.post(`/console/alerts/${rule.id}/enable`);
    await redirectsSaying(on, '/console/alerts', /^“Redirected” is on: it is matched /);
    expect((await t.store.getAlertRule(rule.id))?.enabled).toBe(true);
    await redirectsSaying(
      await owner.post(`/console/alerts/${rule.id}/feed/revoke`),
      '/console/alerts',
      '“Redirected” had no feed.',
    );
    expect((await owner.get(`/console/alerts/${rule.id}/delete`)).body).toContain('Delete this rule');
    const deleted = await owner.post(`/console/alerts/${rule.id}/delete`);
    await redirectsSaying(deleted, '/console/alerts', 'Deleted “Redirected” and its matches.');
    expect(await t.store.getAlertRule(rule.id)).toBeUndefined();
    // Sent again (the form posted twice, a second tab): no error page, the list says it is gone already.
    const again = await owner.post(`/console/alerts/${rule.id}/delete`);
    await redirectsSaying(again, '/console/alerts', 'The rule was already deleted.');
    // Its confirmation page opened late (a stale link, a second tab): nothing to confirm, the list says the same.
    const confirm = await owner.get(`/console/alerts/${rule.id}/delete`);
    expect(confirm.headers.location).toBe('/console/alerts?done=deleted-already');
    await redirectsSaying(confirm, '/console/alerts', 'The rule was already deleted.');
  });

  it('says the same of another account rule, and neither deletes it nor names it', async () => {
    const theirs = await createAlertRule(
      t.store,
      { account: t.accounts.beta, name: 'Not yours', type: 'keyword', keywords: ['ponte'] },
      new Date(t.clock.now),
    );
    await owner.get('/console/alerts');
    const confirm = await owner.get(`/console/alerts/${theirs.id}/delete`);
    await redirectsSaying(confirm, '/console/alerts', 'The rule was already deleted.');
    expect(confirm.headers.location).toBe('/console/alerts?done=deleted-already'); // nothing of theirs told
    const res = await owner.post(`/console/alerts/${theirs.id}/delete`);
    await redirectsSaying(res, '/console/alerts', 'The rule was already deleted.');
    expect(res.headers.location).toBe('/console/alerts?done=deleted-already'); // nothing of theirs told
    expect(await t.store.getAlertRule(theirs.id)).toMatchObject({ name: 'Not yours' });
  });

  it('subscribes once: the same form sent again, and a new one for the same place, say it is there', async () => {
    const [template] = await t.store.listAlertTemplates();
    const mine = async () =>
      (await listAccountRules(t.store, t.accounts.premium)).filter((r) => r.template_id === template.id);
    await owner.get(`/console/alerts/subscribe?template=${template.key}`);
    const form = { _once: owner.once, template: template.key, scope: 'national' };
    const first = await owner.post('/console/alerts/subscribe', form);
    await redirectsSaying(first, '/console/alerts', `Subscribed: “${template.name}”.`);
    const again = await owner.post('/console/alerts/subscribe', form); // a double click, a reload
    await redirectsSaying(
      again,
      '/console/alerts',
      'That form had been sent already, so no second subscription was made: it is in the list below.',
    );
    await owner.get(`/console/alerts/subscribe?template=${template.key}`); // the form drawn again: a new token
    const second = await owner.post('/console/alerts/subscribe', { template: template.key, scope: 'national' });
    await redirectsSaying(second, '/console/alerts', `You have “${template.name}” already, so nothing new was made.`);
    expect(await mine()).toHaveLength(1);
  });
});

describe('account', () => {
  it('adds a member once for a form sent twice, and disables one with a redirect', async () => {
    await owner.get('/console/account');
    const form = { _once: owner.once, email: 'rui@twice.example', role: 'member' };
    const added = await owner.post('/console/account/users', form);
    expect(added.status).toBe(200);
    expect(secretIn(added.body)).toContain('/console/set-password');
    const again = await owner.post('/console/account/users', form);
    await redirectsSaying(again, '/console/account', /^That form had been sent already, so no one was added again/);
    const member = (await t.store.console.listUsers(t.accounts.premium)).find((u) => u.email === form.email);
    if (!member) throw new Error('no member');
    const disabled = await owner.post(`/console/account/users/${member.id}/disable`);
    await redirectsSaying(disabled, '/console/account', 'Disabled rui@twice.example; their sessions have ended.');
  });
});

describe('alert feeds', () => {
  it('gives one feed URL for a form sent twice, and the URL shown first keeps working', async () => {
    const rule = await createAlertRule(
      t.store,
      { account: t.accounts.premium, name: 'Feed twice', type: 'keyword', keywords: ['ponte'] },
      new Date(t.clock.now),
    );
    await owner.get('/console/alerts');
    const form = { _once: owner.once };
    const first = await owner.post(`/console/alerts/${rule.id}/feed`, form);
    expect(first.status).toBe(200);
    const shown = /(http\S+\/feeds\/alerts\/mdfeed_[\w-]+)/.exec(said(first.body).join(' '))?.[1] as string;
    expect(shown).toBeDefined();
    const feed = () => t.app.http.inject({ method: 'GET', url: new URL(shown).pathname });

    const again = await owner.post(`/console/alerts/${rule.id}/feed`, form); // the browser's reload of the answer
    expect(again.status).toBe(303);
    const list = await owner.get(String(again.headers.location));
    expect(said(list.body).join(' ')).toContain('so no new feed URL was made: the URL shown before still works');
    expect(list.body).not.toContain('/feeds/alerts/mdfeed_');
    expect((await feed()).statusCode).toBe(200);
  });
});

describe('company agents', () => {
  let slug: string;
  let buyer: ConsoleClient;
  beforeAll(async () => {
    const { SOLAR_INSTALLER } = await import('../src/agents/demo/solar-installer.js');
    slug = 'twice-solar';
    await owner.get('/console/agents');
    expect(
      (await owner.post('/console/agents/upload', { file: JSON.stringify({ ...SOLAR_INSTALLER, slug }) })).status,
    ).toBe(303);
    await owner.post(`/console/agents/${slug}/publish`);
    const user = await consoleUser(t, { accountId: t.accounts.beta, email: 'bea@twice.example', role: 'owner' });
    buyer = new ConsoleClient(t);
    await buyer.signIn(user.email, user.password);
  });
  const credentials = async () => {
    const deployment = await t.store.agents.getDeployment(slug);
    return t.store.agents.listAgentCredentials(Number(deployment?.id));
  };

  it('creates one credential for a form sent twice; the second send shows no secret', async () => {
    const before = (await credentials()).length;
    await owner.get(`/console/agents/${slug}`);
    const form = { _once: owner.once, channel: 'a2a', label: 'sent twice' };
    const first = await owner.post(`/console/agents/${slug}/credentials`, form);
    expect(first.status).toBe(200);
    expect(secretIn(first.body)).toMatch(/^sk_live_/);
    const again = await owner.post(`/console/agents/${slug}/credentials`, form);
    expect(again.status).toBe(303);
    const page = await owner.get(String(again.headers.location));
    expect(said(page.body).join(' ')).toContain('That form had been sent already, so nothing new was created');
    expect(secretIn(page.body)).toBeUndefined();
    expect((await credentials()).length).toBe(before + 1);
  });

  it('issues one licence for a form sent twice; the second send shows no secret', async () => {
    const before = (await credentials()).length;
    await buyer.get('/console/marketplace');
    const form = { _once: buyer.once };
    const first = await buyer.post(`/console/marketplace/${slug}/license`, form);
    expect(first.status, first.body.slice(0, 300)).toBe(200);
    expect(secretIn(first.body)).toMatch(/^sk_live_/);
    const again = await buyer.post(`/console/marketplace/${slug}/license`, form);
    expect(again.status).toBe(303);
    const page = await buyer.get(String(again.headers.location));
    expect(said(page.body).join(' ')).toContain('That form had been sent already, so no second licence was issued');
    expect(secretIn(page.body)).toBeUndefined();
    expect((await credentials()).length).toBe(before + 1);
  });

  it('uploads, pauses, publishes and revokes with redirects that say what was done', async () => {
    const { SOLAR_INSTALLER } = await import('../src/agents/demo/solar-installer.js');
    await owner.get('/console/agents');
    const form = { _once: owner.once, file: JSON.stringify({ ...SOLAR_INSTALLER, slug }) };
    const uploaded = await owner.post('/console/agents/upload', form);
    const name = SOLAR_INSTALLER.name;
    const revision = (await t.store.agents.getDeployment(slug))?.revision;
    await redirectsSaying(uploaded, '/console/agents', `Updated “${name}” (${slug}), revision ${revision}.`);
    const again = await owner.post('/console/agents/upload', form); // a double click: no third revision
    await redirectsSaying(again, '/console/agents', /^That form had been sent already, so the file was not uploaded/);
    expect((await t.store.agents.getDeployment(slug))?.revision).toBe(revision);
    const paused = await owner.post(`/console/agents/${slug}/pause`);
    await redirectsSaying(paused, '/console/agents', `${slug} is paused: its addresses answer 404.`);
    const published = await owner.post(`/console/agents/${slug}/publish`);
    await redirectsSaying(published, '/console/agents', `${slug} is published: it answers on its addresses.`);

    const deployment = await t.store.agents.getDeployment(slug);
    const [licence] = await t.store.console.listLicencesOfDeployments([Number(deployment?.id)]);
    const buyerName = (await t.store.getAccount(t.accounts.beta))?.name;
    const page = `/console/agents/${slug}`;
    expect((await owner.get(`${page}/licences/${licence.id}/revoke`)).body).toContain('Revoke this licence');
    await redirectsSaying(
      await owner.post(`${page}/licences/${licence.id}/revoke`),
      page,
      `Revoked the licence of ${buyerName}: their credential is refused from its next request.`,
    );
    const credential = (await credentials()).find((c) => c.label === 'sent twice');
    if (!credential) throw new Error('no credential');
    expect((await owner.get(`${page}/credentials/${credential.id}/revoke`)).body).toContain('Revoke this credential');
    await redirectsSaying(
      await owner.post(`${page}/credentials/${credential.id}/revoke`),
      page,
      /^Revoked the credential sk_live_\S+: its next request is refused\.$/,
    );
  });

  it('says a revoked credential or licence is revoked already on its confirmation page, nothing to press', async () => {
    const page = `/console/agents/${slug}`;
    // The credential as the console names it (its prefix), not the stored record.
    const credential = (await listCredentials(t.store, slug)).find((c) => c.label === 'sent twice');
    const deployment = await t.store.agents.getDeployment(slug);
    const [licence] = await t.store.console.listLicencesOfDeployments([Number(deployment?.id)]);
    if (!credential?.revoked_at || !licence?.revoked_at) throw new Error('the test before revokes both');
    const buyerName = (await t.store.getAccount(t.accounts.beta))?.name;
    const cases = [
      {
        url: `${page}/credentials/${credential.id}/revoke`,
        says:
          `The A2A credential ${credential.prefix} of ${slug} is revoked already, since ` +
          `${credential.revoked_at.slice(0, 16).replace('T', ' ')}: every request with it is refused.`,
      },
      {
        url: `${page}/licences/${licence.id}/revoke`,
        says:
          `The licence of ${buyerName} to ${slug} is revoked already, since ` +
          `${licence.revoked_at.slice(0, 16).replace('T', ' ')}: their credential is refused on every request.`,
      },
    ];
    for (const { url, says } of cases) {
      const confirm = await owner.get(url);
      expect(confirm.status).toBe(200);
      const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(confirm.body)?.[1] ?? '';
      expect(main.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ')).toContain(says);
      expect(main).toContain(`<a href="${page}">Back to ${slug}</a>`);
      expect(main).not.toContain('<form');
      expect(main).not.toContain('<button');
      // Its form sent again all the same (an older tab): no error, the page says it is revoked.
      expect((await owner.post(url)).status).toBe(303);
    }
  });
});

describe('connected app disconnected', () => {
  /** Whether the access token still reads: an MCP `tools/list` with it as Bearer. */
  const tokenWorks = async (token: string) =>
    (
      await t.app.http.inject({
        method: 'POST',
        url: '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })
    ).statusCode === 200;

  it('answers with a redirect to the list, which names the app once; the grant and its tokens are gone', async () => {
    const { client, tokens } = await connectedClient(t, t.accounts.premium);
    const [app] = (await listConnectedApps(t.app.oauth, t.accounts.premium)).filter(
      (a) => a.clientId === client.client_id,
    );
    expect(await tokenWorks(tokens.access_token)).toBe(true);
    const list = await owner.get('/console/apps');
    expect(list.body).toContain(`<code>${client.client_id}</code>`);
    expect(list.body).toContain(`href="/console/apps/${app.grantId}/disconnect"`);

    expect((await owner.get(`/console/apps/${app.grantId}/disconnect`)).body).toContain(
      `Disconnect <strong>${client.client_name}</strong>?`,
    );
    const res = await owner.post(`/console/apps/${app.grantId}/disconnect`);
    await redirectsSaying(res, '/console/apps', `Disconnected ${client.client_name}: its tokens no longer work.`);
    expect((await listConnectedApps(t.app.oauth, t.accounts.premium)).map((a) => a.grantId)).not.toContain(app.grantId);
    expect((await owner.get('/console/apps')).body).not.toContain(client.client_id);
    expect(await tokenWorks(tokens.access_token)).toBe(false);
    // Sent again (a second tab, a double click): no error page, the list says it is disconnected already.
    const again = await owner.post(`/console/apps/${app.grantId}/disconnect`);
    await redirectsSaying(again, '/console/apps', 'The app was already disconnected.');
    // Its confirmation page opened late (a stale link, a second tab): nothing to confirm, the list says the same.
    const confirm = await owner.get(`/console/apps/${app.grantId}/disconnect`);
    expect(confirm.headers.location).toBe('/console/apps?done=disconnected-already');
    await redirectsSaying(confirm, '/console/apps', 'The app was already disconnected.');
  });

  it('says the same of another account app, and neither disconnects it nor names it', async () => {
    const { client, tokens } = await connectedClient(t, t.accounts.beta);
    const [theirs] = (await listConnectedApps(t.app.oauth, t.accounts.beta)).filter(
      (a) => a.clientId === client.client_id,
    );
    await owner.get('/console/apps');
    const confirm = await owner.get(`/console/apps/${theirs.grantId}/disconnect`);
    await redirectsSaying(confirm, '/console/apps', 'The app was already disconnected.');
    expect(confirm.headers.location).toBe('/console/apps?done=disconnected-already'); // nothing of theirs told
    expect(confirm.body).not.toContain(client.client_name);
    const res = await owner.post(`/console/apps/${theirs.grantId}/disconnect`);
    await redirectsSaying(res, '/console/apps', 'The app was already disconnected.');
    expect(res.headers.location).toBe('/console/apps?done=disconnected-already'); // nothing of theirs told
    expect((await listConnectedApps(t.app.oauth, t.accounts.beta)).map((a) => a.grantId)).toContain(theirs.grantId);
    expect(await tokenWorks(tokens.access_token)).toBe(true);
  });
});
