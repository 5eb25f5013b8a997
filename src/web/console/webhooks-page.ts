/**
 * Webhooks (docs/console.md, Webhooks): the account's endpoints and the form that registers one, with the checks
 * and messages of `munidata webhooks create` (src/webhooks/endpoints.ts: events the plan includes, the catalogue's
 * families and types, the address guard — whose refusals speak an account's words here, not the operator's:
 * endpoint-wording.ts); the signing secret is shown once, and the form is sent once (form-once.ts). Owners and
 * admins register, the others read. One endpoint's settings and delivery log are webhook-endpoint-page.ts.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AdminError } from '../../lib/admin-error.js';
import { commaList } from '../../lib/comma-list.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpointRecord } from '../../store/webhooks/records.js';
import { ACCOUNT_WORDING } from '../../webhooks/endpoint-wording.js';
import { createWebhookEndpoint, WEBHOOK_FAMILIES } from '../../webhooks/endpoints.js';
import { type Html, html } from '../html.js';
import { doneOf, redirectDone } from './done.js';
import { formOf } from './form-fields.js';
import { firstSend, onceField } from './form-once.js';
import { csrfField, date, message, page, secretOnce, sendHtml } from './html.js';
import { whenItRuns } from './next-run.js';
import { refusedForm } from './refusal.js';
import { ACCOUNT_EDITORS, canEdit, requireRole, requireUser, type SignedIn } from './signed-in.js';

interface Typed {
  url: string;
  events: readonly string[];
  families: readonly string[];
  types: string;
}

const BLANK: Typed = { url: '', events: [], families: [], types: '' };

export function registerWebhooksPage(scope: FastifyInstance): void {
  const { store, clock, webhookAllowLoopback, pipelineIntervalS } = scope.signedInDeps;

  scope.get('/console/webhooks', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const done = doneOf(request);
    const notice =
      done?.what === 'resent'
        ? 'That form had been sent already, so nothing new was registered: the endpoint it registered is in the ' +
          'list below. A signing secret is shown only once: if you did not copy it, open the endpoint and rotate it.'
        : done?.what === 'deleted'
          ? `Deleted the endpoint ${done.value('url')} with its deliveries.`
          : done?.what === 'deleted-already'
            ? 'The endpoint was already deleted.'
            : undefined;
    return send(reply, who, await reply.generateCsrf(), { notice });
  });

  scope.post('/console/webhooks', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, ...ACCOUNT_EDITORS);
    const form = formOf(request);
    const typed: Typed = {
      url: form.text('url').trim(),
      events: form.list('events'),
      families: form.list('families'),
      types: form.text('types'),
    };
    const csrf = await reply.generateCsrf();
    try {
      const registered = await firstSend(request, () =>
        createWebhookEndpoint(
          store,
          { account: who.account.id, ...typed, types: commaList(typed.types) },
          { now: new Date(clock()), allowLoopback: webhookAllowLoopback, wording: ACCOUNT_WORDING },
        ),
      );
      if (!registered) return redirectDone(reply, '/console/webhooks', 'resent');
      const { endpoint, secret } = registered;
      const first = whenItRuns('deliver', pipelineIntervalS);
      return send(reply, who, csrf, {
        secret: secretOnce(`The signing secret of ${endpoint.url}.`, secret),
        notice: `Registered ${endpoint.url}: the events it takes are sent to it ${first}.`,
      });
    } catch (error) {
      if (error instanceof AdminError)
        return send(refusedForm(reply), who, csrf, { error: asSentence(error.message), typed });
      throw error;
    }
  });

  async function send(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: { error?: string; notice?: string; secret?: Html; typed?: Typed },
  ): Promise<FastifyReply> {
    const endpoints = await store.webhooks.listEndpoints(who.account.id);
    const editor = canEdit(who);
    const rows = endpoints.map(
      (e) => html`<tr><td><a href="/console/webhooks/${e.id}">${e.url}</a></td><td>${e.events.join(', ')}</td>
<td>${filters(e)}</td><td>${endpointState(e)}</td><td>${date(e.created_at)}</td></tr>`,
    );
    const intro = editor
      ? html``
      : html`<p class="muted" role="note">Only the account's owner or an admin registers and changes endpoints; you can
read them and their deliveries.</p>`;
    return sendHtml(
      reply,
      page({
        title: 'Webhooks',
        who,
        csrf,
        section: 'webhooks',
        body: html`${message('error', o.error)}${message('notice', o.notice)}${o.secret}${intro}
<p class="muted">The service POSTs each event an endpoint takes to it, signed as Standard Webhooks says
(<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>), and retries until it is
answered with a 2xx. Open an endpoint for its delivery log.</p>
<h2>Your endpoints</h2>
<section><table><thead><tr><th>URL</th><th>Events</th><th>Filters</th><th>State</th><th>Created</th>
</tr></thead><tbody>${
          rows.length > 0 ? rows : html`<tr><td colspan="5" class="muted">No endpoints yet.</td></tr>`
        }</tbody></table></section>
${editor && registerForm(csrf, o.typed ?? BLANK)}`,
      }),
    );
  }
}

/** On or off, why, and since when it has been failing. */
export function endpointState(e: WebhookEndpointRecord): Html {
  const failing = e.failing_since && html`<br><span class="muted">failing since ${date(e.failing_since)}</span>`;
  return e.enabled
    ? html`<span class="pill live">on</span>${failing}`
    : html`<span class="pill paused">off</span> <span class="muted">${e.disabled_reason}</span>`;
}

/** The families and types an endpoint's signal and case events are narrowed to. */
export function filters(e: WebhookEndpointRecord): string {
  const families = e.families.length > 0 ? e.families.join(', ') : 'all';
  const types = e.types.length > 0 ? e.types.join(', ') : 'all';
  return `families: ${families}; types: ${types}`;
}

function registerForm(csrf: string, typed: Typed): Html {
  const box = (name: string, value: string, chosen: readonly string[]) =>
    html`<label><input type="checkbox" name="${name}" value="${value}"${chosen.includes(value) && html` checked`}>
${value}</label>`;
  const families = WEBHOOK_FAMILIES.map((f) => box('families', f, typed.families));
  return html`<h2 id="register">Register an endpoint</h2>
<form method="post" action="/console/webhooks" class="card" aria-labelledby="register">${csrfField(csrf)}${onceField()}
<label for="url">URL (https; the address must be public)</label>
<input id="url" name="url" type="text" value="${typed.url}" placeholder="https://example.pt/hooks/munidata">
<fieldset><legend>Events</legend>${WEBHOOK_EVENT_TYPES.map((t) => box('events', t, typed.events))}</fieldset>
<fieldset><legend>Signal and case events: only these families (none ticked: every family)</legend>${families}
</fieldset>
<label for="types">Signal and case events: only these types, comma-separated (empty: every type)</label>
<input id="types" name="types" type="text" value="${typed.types}">
<button type="submit">Register</button></form>`;
}

/**
 * A message of `munidata webhooks create` as a sentence of the page: its first word capitalised (not an event's
 * name, `alert_match.created needs…`), a full stop at the end.
 */
function asSentence(message: string): string {
  const capitalised = message.replace(/^[a-z]+(?= )/, (word) => word[0].toUpperCase() + word.slice(1));
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}
