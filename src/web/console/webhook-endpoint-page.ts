/**
 * One webhook endpoint (docs/console.md, Webhooks): its settings, its delivery log (each attempt's time, event,
 * webhook-id, status, latency and the answer's first bytes) with redelivery, and for owners and admins the
 * secret's rotation (the new one shown once, the old one signing alongside for the stated overlap), turning it
 * off and on, acknowledging the notice of its disabling, and deletion after a confirmation. Each change answers
 * with a redirect to the page (a reload sends nothing again), but the rotation, whose answer shows the secret: its
 * form is sent once (form-once.ts). The same functions as `munidata webhooks` (src/webhooks/endpoints.ts, the
 * store's redeliver).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from '../../store/webhooks/records.js';
import { rotateWebhookSecret, SECRET_OVERLAP_S, setWebhookEndpointEnabled } from '../../webhooks/endpoints.js';
import { type Html, html } from '../html.js';
import { doneOf, redirectDone } from './done.js';
import { firstSend, onceField } from './form-once.js';
import { confirmUnlessGone, type GoneAnswer, redirectGone } from './gone.js';
import { confirmPage, csrfField, date, message, page, secretOnce, sendHtml } from './html.js';
import { whenItRuns } from './next-run.js';
import { notFound } from './refusal.js';
import { ACCOUNT_EDITORS, canEdit, requireRole, requireUser, type SignedIn } from './signed-in.js';
import { endpointState, filters } from './webhooks-page.js';

/** The deliveries the log shows, newest first (as `munidata webhooks deliveries` does by default). */
const LOG_DELIVERIES = 20;

/** What deleting an endpoint that is gone already answers (gone.ts): the list, saying so. */
const ENDPOINT_GONE: GoneAnswer = { list: '/console/webhooks', done: 'deleted-already' };

/** What a change redirects back with (`?done=…`, done.ts), for the page to say what was done. */
type Done = 'enable' | 'disable' | 'acknowledge' | 'redeliver' | 'resent';

export function registerWebhookEndpointPage(scope: FastifyInstance): void {
  const { store, clock, pipelineIntervalS } = scope.signedInDeps;
  const now = () => new Date(clock());
  const path = (e: WebhookEndpointRecord) => `/console/webhooks/${e.id}`;

  /** An endpoint of the signed-in user's account: another account's is as unknown as a missing one. */
  async function ownEndpoint(who: SignedIn, id: string): Promise<WebhookEndpointRecord> {
    const endpoint = await findOwnEndpoint(who, id);
    if (!endpoint) throw notFound('webhook endpoint');
    return endpoint;
  }

  /** The account's endpoint whose id is `id`, or undefined: missing, or another account's (which reads the same). */
  async function findOwnEndpoint(who: SignedIn, id: string): Promise<WebhookEndpointRecord | undefined> {
    const endpoint = /^\d{1,9}$/.test(id) ? await store.webhooks.getEndpoint(Number(id)) : undefined;
    return endpoint?.account_id === who.account.id ? endpoint : undefined;
  }

  /** The signed-in user, who may change the account's endpoints; undefined after answering. */
  async function editor(request: Parameters<typeof requireUser>[0], reply: FastifyReply) {
    const who = await requireUser(request, reply);
    if (who) requireRole(who, ...ACCOUNT_EDITORS);
    return who;
  }

  /** The signed-in editor and their endpoint of the request's `:id`, for the handlers that change it. */
  async function editing(request: Parameters<typeof requireUser>[0], reply: FastifyReply) {
    const who = await editor(request, reply);
    if (!who) return undefined;
    return { who, endpoint: await ownEndpoint(who, (request.params as { id: string }).id) };
  }

  scope.get('/console/webhooks/:id', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const endpoint = await ownEndpoint(who, (request.params as { id: string }).id);
    const done = doneOf(request);
    const notice = done && doneNotice(done.what as Done, done.value('delivery'));
    return send(reply, who, await reply.generateCsrf(), endpoint, { notice });
  });

  /** The page again after a change, saying what was done: a reload of it sends nothing again. */
  const done = (reply: FastifyReply, endpoint: WebhookEndpointRecord, what: Done, delivery = '') =>
    redirectDone(reply, path(endpoint), what, delivery ? { delivery } : {});

  function doneNotice(what: Done, delivery: string): string | undefined {
    switch (what) {
      case 'enable':
        return `The endpoint is on: its waiting deliveries are sent ${whenItRuns('deliver', pipelineIntervalS)}.`;
      case 'disable':
        return 'The endpoint is off: its deliveries wait until it is turned on again.';
      case 'acknowledge':
        return 'Acknowledged: the notice is gone; the endpoint stays off until you turn it on.';
      case 'redeliver':
        return `Delivery ${delivery} is queued again: it is sent with the same webhook-id and body ${whenItRuns(
          'deliver',
          pipelineIntervalS,
        )}.`;
      case 'resent':
        return (
          'That form had been sent already, so the secret was not rotated again. A secret is shown only once: ' +
          'if you did not copy the new one, rotate it again.'
        );
      default:
        return undefined;
    }
  }

  scope.post('/console/webhooks/:id/rotate', async (request, reply) => {
    const asked = await editing(request, reply);
    if (!asked) return reply;
    const rotated = await firstSend(request, () => rotateWebhookSecret(store, asked.endpoint.id, now()));
    if (!rotated) return done(reply, asked.endpoint, 'resent');
    return send(reply, asked.who, await reply.generateCsrf(), asked.endpoint, {
      secret: secretOnce('The new signing secret.', rotated.secret),
      notice: `The old secret signs alongside the new one until ${rotated.old_secret_signs_until}; then only the new
one does.`,
    });
  });

  for (const [action, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    scope.post(`/console/webhooks/:id/${action}`, async (request, reply) => {
      const asked = await editing(request, reply);
      if (!asked) return reply;
      await setWebhookEndpointEnabled(store, asked.endpoint.id, enabled, { now: now(), by: asked.who.user.email });
      return done(reply, asked.endpoint, action);
    });
  }

  scope.post('/console/webhooks/:id/acknowledge', async (request, reply) => {
    const asked = await editing(request, reply);
    if (!asked) return reply;
    await store.webhooks.acknowledgeNotice(asked.endpoint.id, now().toISOString());
    return done(reply, asked.endpoint, 'acknowledge');
  });

  scope.post('/console/webhooks/:id/deliveries/:delivery/redeliver', async (request, reply) => {
    const asked = await editing(request, reply);
    if (!asked) return reply;
    const id = (request.params as { delivery: string }).delivery;
    const delivery = /^\d{1,12}$/.test(id) ? await store.webhooks.getDelivery(Number(id)) : undefined;
    if (!delivery || delivery.endpoint_id !== asked.endpoint.id) throw notFound('delivery');
    if (!(await store.webhooks.redeliver(delivery.id, now().toISOString())))
      return send(reply.code(409), asked.who, await reply.generateCsrf(), asked.endpoint, {
        error: 'This delivery is being attempted right now; try again in a minute.',
      });
    return done(reply, asked.endpoint, 'redeliver', delivery.message_id);
  });

  // An endpoint gone already (a second tab, a stale link) has nothing to confirm: the list says so, as the form would.
  scope.get('/console/webhooks/:id/delete', async (request, reply) => {
    const who = await editor(request, reply);
    if (!who) return reply;
    const endpoint = await findOwnEndpoint(who, (request.params as { id: string }).id);
    return confirmUnlessGone(reply, endpoint, ENDPOINT_GONE, (endpoint, csrf) =>
      confirmPage({
        who,
        csrf,
        section: 'webhooks',
        title: 'Delete a webhook endpoint',
        question: html`Delete ${endpoint.url} with its deliveries and their log? This cannot be undone; to stop
it for a while, turn it off instead.`,
        action: `${path(endpoint)}/delete`,
        button: 'Delete this endpoint',
        back: path(endpoint),
      }),
    );
  });

  scope.post('/console/webhooks/:id/delete', async (request, reply) => {
    const who = await editor(request, reply);
    if (!who) return reply;
    const endpoint = await findOwnEndpoint(who, (request.params as { id: string }).id);
    // Gone already (the form sent twice, a second tab): what was asked is done, so back to the list saying so
    // (gone.ts). Another account's endpoint reads the same, and is neither touched nor named.
    if (!endpoint || !(await store.webhooks.deleteEndpoint(endpoint.id))) return redirectGone(reply, ENDPOINT_GONE);
    return redirectDone(reply, '/console/webhooks', 'deleted', { url: endpoint.url });
  });

  async function send(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    endpoint: WebhookEndpointRecord,
    o: { error?: string; notice?: string; secret?: Html },
  ): Promise<FastifyReply> {
    const deliveries = await store.webhooks.listDeliveries(endpoint.id, LOG_DELIVERIES);
    const logs = await Promise.all(deliveries.map((d) => deliveryRows(d, canEdit(who))));
    return sendHtml(
      reply,
      page({
        title: 'Webhook endpoint',
        who,
        csrf,
        section: 'webhooks',
        body: html`${message('error', o.error)}${message('notice', o.notice)}${o.secret}
<p><a href="/console/webhooks">← All endpoints</a></p>
<section><table><tbody>
<tr><th scope="row">URL</th><td>${endpoint.url}</td></tr>
<tr><th scope="row">Events</th><td>${endpoint.events.join(', ')}</td></tr>
<tr><th scope="row">Filters</th><td>${filters(endpoint)}</td></tr>
<tr><th scope="row">State</th><td>${endpointState(endpoint)}</td></tr>
<tr><th scope="row">Created</th><td>${date(endpoint.created_at)}</td></tr>
</tbody></table>${canEdit(who) && actions(endpoint)}</section>
<h2>Delivery log</h2>
<p class="muted">The latest ${LOG_DELIVERIES} deliveries, newest first, each attempt with the answer's first bytes.
A redelivery sends the same <code>webhook-id</code> and body again.</p>
<section><table><thead><tr><th>Time</th><th>Event</th><th>webhook-id</th><th>Status</th><th>Latency</th>
<th>Answer</th><th>Delivery</th></tr></thead><tbody>${
          logs.length > 0 ? logs : html`<tr><td colspan="7" class="muted">Nothing delivered yet.</td></tr>`
        }</tbody></table></section>`,
      }),
    );

    function actions(e: WebhookEndpointRecord): Html {
      const form = (action: string, label: string) =>
        html`<form method="post" action="${path(e)}/${action}">${csrfField(csrf)}
${action === 'rotate' && onceField()}<button type="submit" class="secondary">${label}</button></form>`;
      const overlap = SECRET_OVERLAP_S / 3_600;
      const toggle = e.enabled ? form('disable', 'Turn off') : form('enable', 'Turn on');
      return html`<div class="actions">${form('rotate', 'Rotate the secret')}${toggle}
<a href="${path(e)}/delete">Delete…</a></div>
<p class="muted">Rotating shows a new secret once; the old one keeps signing alongside it for ${overlap} hours.</p>`;
    }

    async function deliveryRows(d: WebhookDeliveryRecord, editor: boolean): Promise<Html> {
      const attempts = (await store.webhooks.listAttempts(d.id)).reverse();
      const redeliver =
        editor &&
        html`<form method="post" action="${path(endpoint)}/deliveries/${d.id}/redeliver">${csrfField(csrf)}
<button type="submit" class="secondary" aria-label="Redeliver ${d.message_id}">Redeliver</button></form>`;
      const state = html`<span class="pill">${d.state}</span> ${redeliver}`;
      const event = html`<td>${d.event_type}</td><td><code>${d.message_id}</code></td>`;
      if (attempts.length === 0)
        return html`<tr><td class="muted">not yet attempted</td>${event}<td>—</td><td>—</td><td>—</td>
<td>${state}</td></tr>`;
      return html`${attempts.map(
        (a, i) => html`<tr><td>${date(a.attempted_at)}</td>${event}<td>${a.status ?? 'no answer'}</td>
<td>${a.latency_ms} ms</td><td>${a.error ?? html`<code>${a.response_head}</code>`}</td>
<td>${i === 0 ? state : ''}</td></tr>`,
      )}`;
    }
  }
}
