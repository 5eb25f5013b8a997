/**
 * API keys (docs/console.md): the account's keys (prefix only), a form to create one with a label, a subset of
 * the plan's scopes and an optional last day (the secret shown once), and revocation after a confirmation.
 * Owners create and revoke; admins and members only read. The same functions as `munidata keys` (src/admin/keys.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createKey, listKeys, type PublicKeyView, revokeKey } from '../../admin/keys.js';
import { AdminError } from '../../lib/admin-error.js';
import { DOMAINS } from '../../lib/domains.js';
import type { PlanRecord } from '../../store/records.js';
import { html, joined, trusted } from '../html.js';
import { formOf } from './form-fields.js';
import { csrfField, date, message, page, secretOnce, sendHtml } from './html.js';
import { notFound } from './refusal.js';
import { requireRole, requireUser, type SignedIn } from './signed-in.js';

export function registerKeysPage(scope: FastifyInstance): void {
  const { store, clock } = scope.signedInDeps;

  scope.get('/console/keys', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    return send(reply, who, await reply.generateCsrf(), {});
  });

  scope.post('/console/keys', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const form = formOf(request);
    const scopes = form.list('scopes');
    const csrf = await reply.generateCsrf();
    if (scopes.length === 0) return send(reply.code(400), who, csrf, { error: 'Choose at least one scope.' });
    const outside = scopes.filter((s) => !planScopes(who.plan).includes(s));
    if (outside.length > 0) {
      return send(reply.code(400), who, csrf, { error: `Your plan does not include ${outside.join(', ')}.` });
    }
    try {
      const created = await createKey(
        store,
        {
          accountId: who.account.id,
          scopes,
          label: form.text('label').trim() || undefined,
          expires: form.text('expires').trim() || undefined,
        },
        new Date(clock()),
      );
      return send(reply, who, csrf, { secret: created.secret, created: created.key });
    } catch (error) {
      if (error instanceof AdminError)
        return send(reply.code(400), who, csrf, { error: error.message.replace('--expires', 'The last day') });
      throw error;
    }
  });

  scope.get('/console/keys/:id/revoke', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const key = await ownKey(who, (request.params as { id: string }).id);
    const csrf = await reply.generateCsrf();
    return sendHtml(
      reply,
      page({
        title: 'Revoke an API key',
        who,
        csrf,
        section: 'keys',
        body: html`<section><p>Revoke the key <code>${key.prefix}</code>${
          key.label && ` (“${key.label}”)`
        }? Every request with it is refused
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
    return send(reply, who, await reply.generateCsrf(), { notice: `Revoked the key ${key.prefix}.` });
  });

  /** A key of the signed-in user's account: another account's id is as unknown as a missing one. */
  async function ownKey(who: SignedIn, id: string): Promise<PublicKeyView> {
    const key = (await listKeys(store, who.account.id)).find((k) => String(k.id) === id);
    if (!key) throw notFound('key');
    return key;
  }

  async function send(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: { secret?: string; created?: PublicKeyView; error?: string; notice?: string },
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
      )}</td><td>${date(k.created_at)}</td><td>${date(lastUsed.get(k.id))}</td><td>${date(k.expires_at)}</td>
<td>${
        k.revoked_at
          ? html`<span class="pill revoked">revoked ${date(k.revoked_at)}</span>`
          : owner
            ? html`<a href="/console/keys/${k.id}/revoke">Revoke…</a>`
            : 'active'
      }</td></tr>`,
    );
    const labelInput = trusted(
      '<input id="label" name="label" type="text" maxlength="100" placeholder="What the key is for">',
    );
    const form = owner
      ? html`<h2>Create a key</h2>
<form method="post" action="/console/keys" class="card">${csrfField(csrf)}
<label for="label">Label</label>${labelInput}
<fieldset><legend>Scopes</legend>${planScopes(who.plan).map(
          (s) => html`<label><input type="checkbox" name="scopes" value="${s}" checked> ${s}</label>`,
        )}</fieldset>
<label for="expires">Last day it works (optional)</label><input id="expires" name="expires" type="date">
<button type="submit">Create key</button>
</form>`
      : html`<p class="muted">Only the account's owner creates and revokes keys.</p>`;
    const bearer = html`<code>Authorization: Bearer sk_live_…</code>`;
    const endpoints = html`REST <code>/v1</code>, A2A <code>/a2a</code> and MCP <code>/mcp</code>`;
    const head = trusted(
      '<thead><tr><th>Label</th><th>Key</th><th>Scopes</th><th>Created</th><th>Last used</th><th>Works until</th>' +
        '<th></th></tr></thead>',
    );
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
          rows.length > 0 ? joined(rows, '\n') : html`<tr><td colspan="7" class="muted">No keys yet.</td></tr>`
        }</tbody></table></section>
${form}`,
      }),
    );
  }
}

/** The scopes of the plan's domains: a key gets a subset of them. */
function planScopes(plan: PlanRecord): string[] {
  return plan.domains.map((d) => DOMAINS[d].scope);
}
