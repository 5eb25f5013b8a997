/**
 * API keys (docs/console.md): the account's keys (prefix only), a form to create one with a label, a subset of
 * the plan's scopes and an optional last day (the secret shown once; the form is sent once, form-once.ts), and
 * revocation after a confirmation (then back to the list). Owners create and revoke; admins and members only read.
 * The same functions as `munidata keys` (src/admin/keys.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createKey, lastDayOf, listKeys, type PublicKeyView, revokeKey } from '../../admin/keys.js';
import { AdminError } from '../../lib/admin-error.js';
import { DOMAINS } from '../../lib/domains.js';
import type { PlanRecord } from '../../store/records.js';
import { type Html, html, joined } from '../html.js';
import { doneOf, redirectDone } from './done.js';
import { formOf } from './form-fields.js';
import { firstSend, onceField } from './form-once.js';
import { ACTIONS_HEADING, csrfField, date, message, page, secretOnce, sendHtml } from './html.js';
import { notFound, refusedForm } from './refusal.js';
import { revokedPage } from './revoked.js';
import { requireRole, requireUser, type SignedIn } from './signed-in.js';

/** What was typed in the form to create a key: drawn again when it is refused. */
interface Typed {
  label: string;
  scopes: readonly string[];
  expires: string;
}

export function registerKeysPage(scope: FastifyInstance): void {
  const { store, clock } = scope.signedInDeps;

  scope.get('/console/keys', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const done = doneOf(request);
    const key =
      done?.what === 'revoked' ? (await listKeys(store, who.account.id)).find(same(done.value('key'))) : undefined;
    const notice =
      done?.what === 'resent'
        ? 'That form had been sent already, so nothing new was created: the key it made is in the list below. ' +
          'A secret is shown only once: if you did not copy it, revoke that key and create another.'
        : key && `Revoked the key ${key.prefix}${key.label ? ` (“${key.label}”)` : ''}: it no longer works.`;
    return send(reply, who, await reply.generateCsrf(), { notice });
  });

  scope.post('/console/keys', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const form = formOf(request);
    const typed: Typed = { label: form.text('label'), scopes: form.list('scopes'), expires: form.text('expires') };
    const csrf = await reply.generateCsrf();
    const refuse = (error: string) => send(refusedForm(reply), who, csrf, { error, typed });
    if (typed.scopes.length === 0) return refuse('Choose at least one scope.');
    const outside = typed.scopes.filter((s) => !planScopes(who.plan).includes(s));
    if (outside.length > 0) return refuse(`Your plan does not include ${outside.join(', ')}.`);
    try {
      const created = await firstSend(request, () =>
        createKey(
          store,
          {
            accountId: who.account.id,
            scopes: [...typed.scopes],
            label: typed.label.trim() || undefined,
            expires: typed.expires.trim() || undefined,
          },
          new Date(clock()),
        ),
      );
      if (!created) return redirectDone(reply, '/console/keys', 'resent');
      return send(reply, who, csrf, { secret: created.secret, created: created.key });
    } catch (error) {
      if (error instanceof AdminError) return refuse(error.message.replace('--expires', 'The last day'));
      throw error;
    }
  });

  scope.get('/console/keys/:id/revoke', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const key = await ownKey(who, (request.params as { id: string }).id);
    const csrf = await reply.generateCsrf();
    const named = html`<code>${key.prefix}</code>${key.label && ` (“${key.label}”)`}`;
    if (key.revoked_at)
      return sendHtml(
        reply,
        revokedPage({
          title: 'A revoked API key',
          who,
          csrf,
          section: 'keys',
          subject: html`The key ${named}`,
          since: key.revoked_at,
          refused: 'every request with it is refused',
          back: { href: '/console/keys', label: 'Back to your keys' },
        }),
      );
    return sendHtml(
      reply,
      page({
        title: 'Revoke an API key',
        who,
        csrf,
        section: 'keys',
        body: html`<section><p>Revoke the key ${named}? Every request with it is refused
from the next one on, on REST, A2A and MCP. This cannot be undone.</p>
<form method="post" action="/console/keys/${key.id}/revoke">${csrfField(csrf)}
<button type="submit" class="danger">Revoke this key</button> <a href="/console/keys">Keep it</a></form></section>`,
      }),
    );
  });

  scope.post('/console/keys/:id/revoke', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const key = await ownKey(who, (request.params as { id: string }).id);
    if (key.revoked_at === null) await revokeKey(store, key.id, new Date(clock()));
    // Back to the list (Post/Redirect/Get): a reload of it sends nothing again.
    return redirectDone(reply, '/console/keys', 'revoked', { key: key.id });
  });

  /** A key of the signed-in user's account: another account's id is as unknown as a missing one. */
  async function ownKey(who: SignedIn, id: string): Promise<PublicKeyView> {
    const key = (await listKeys(store, who.account.id)).find(same(id));
    if (!key) throw notFound('key');
    return key;
  }

  async function send(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: { secret?: string; created?: PublicKeyView; error?: string; notice?: string; typed?: Typed },
  ): Promise<FastifyReply> {
    const keys = await listKeys(store, who.account.id);
    await scope.signedInDeps.dailyUsage.flush().catch(() => {});
    const lastUsed = await store.console.keysLastUsed(keys.map((k) => k.id));
    const owner = who.user.role === 'owner';
    const rows = keys.map(
      (k) => html`<tr${k.revoked_at && html` class="muted"`}><td>${k.label ?? '—'}</td><td><code>${k.prefix}</code></td>
<td>${joined(
        k.scopes.map((s) => html`<span class="pill">${s}</span>`),
        ' ',
      )}</td><td>${date(k.created_at)}</td><td>${date(lastUsed.get(k.id))}</td><td>${lastDay(k.expires_at)}</td>
<td>${k.revoked_at ? html`<span class="pill revoked">revoked ${date(k.revoked_at)}</span>` : 'active'}</td>${
        owner && html`<td>${!k.revoked_at && html`<a href="/console/keys/${k.id}/revoke">Revoke…</a>`}</td>`
      }</tr>`,
    );
    // A new form has every scope of the plan ticked; a refused one is drawn as it was sent.
    const typed = o.typed ?? { label: '', scopes: planScopes(who.plan), expires: '' };
    const form = owner
      ? html`<h2>Create a key</h2>
<form method="post" action="/console/keys" class="card">${csrfField(csrf)}${onceField()}
<label for="label">Label (optional)</label>
<input id="label" name="label" type="text" maxlength="100" placeholder="What the key is for" value="${typed.label}">
<fieldset><legend>Scopes</legend>${planScopes(who.plan).map(
          (s) =>
            html`<label><input type="checkbox" name="scopes" value="${s}"${
              typed.scopes.includes(s) && html` checked`
            }> ${s}</label>`,
        )}</fieldset>
<label for="expires">Last day it works (optional)</label>
<input id="expires" name="expires" type="date" value="${typed.expires}">
<button type="submit">Create key</button>
</form>`
      : html`<p class="muted">Only the account's owner creates and revokes keys.</p>`;
    const bearer = html`<code>Authorization: Bearer sk_live_…</code>`;
    const endpoints = html`REST <code>/v1</code>, A2A <code>/a2a</code> and MCP <code>/mcp</code>`;
    // Whether a key works (or since when it does not) is a column of its own, labelled on a phone; the owner's last
    // column holds Revoke…, which names itself.
    const head = html`<thead><tr><th>Label</th><th>Key</th><th>Scopes</th><th>Created</th><th>Last used</th>
<th>Last day</th><th>Status</th>${owner && ACTIONS_HEADING}</tr></thead>`;
    return sendHtml(
      reply,
      page({
        title: 'API keys',
        who,
        csrf,
        section: 'keys',
        body: html`${message('error', o.error)}${message('notice', o.notice)}${
          o.secret && secretOnce(`Your new key${o.created?.label ? ` “${o.created.label}”` : ''}:`, o.secret)
        }
<p class="muted">Keys are for servers: send one as ${bearer} to ${endpoints}. Never put one in a web page.</p>
<section><table>${head}
<tbody>${
          rows.length > 0
            ? joined(rows, '\n')
            : html`<tr><td colspan="${owner ? 8 : 7}" class="muted">No keys yet.</td></tr>`
        }</tbody></table></section>
${form}`,
      }),
    );
  }
}

/** Finds the key whose id is `id` as a URL or form gives it. */
function same(id: string): (key: PublicKeyView) => boolean {
  return (key) => String(key.id) === id;
}

/** The last day a key works, as it was chosen (`—` for a key without one). */
function lastDay(expiresAt: string | null): Html {
  if (!expiresAt) return html`—`;
  const day = lastDayOf(expiresAt);
  return html`<time datetime="${day}">${day}</time>`;
}

/** The scopes of the plan's domains: a key gets a subset of them. */
function planScopes(plan: PlanRecord): string[] {
  return plan.domains.map((d) => DOMAINS[d].scope);
}
