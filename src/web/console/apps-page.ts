/**
 * Connected apps (docs/oauth.md, Revocation): the OAuth grants of the account — the app's name and client id, its
 * scopes, when it was connected, first and last used — and Disconnect (after a confirmation), which ends the grant
 * with its tokens on every instance from the next request on. Owners disconnect; others read. The same
 * functions as `munidata oauth grants` (src/oauth/grants.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AuthorizationServer } from '../../oauth/authorization-server.js';
import { type ConnectedApp, listConnectedApps, revokeGrant } from '../../oauth/grants.js';
import { html, joined, trusted } from '../html.js';
import { doneOf, redirectDone } from './done.js';
import { confirmUnlessGone, type GoneAnswer, redirectGone } from './gone.js';
import { ACTIONS_HEADING, csrfField, date, message, page, sendHtml } from './html.js';
import { requireRole, requireUser, type SignedIn } from './signed-in.js';

/** What disconnecting an app that is disconnected already answers (gone.ts): the list, saying so. */
const APP_GONE: GoneAnswer = { list: '/console/apps', done: 'disconnected-already' };

export function registerAppsPage(scope: FastifyInstance, oauth: AuthorizationServer): void {
  scope.get('/console/apps', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const done = doneOf(request);
    const notice =
      done?.what === 'disconnected'
        ? `Disconnected ${done.value('app')}: its tokens no longer work.`
        : done?.what === 'disconnected-already'
          ? 'The app was already disconnected.'
          : undefined;
    return send(reply, who, await reply.generateCsrf(), { notice });
  });

  // An app disconnected already (a second tab, a stale link): nothing to confirm; the list says so, as the form would.
  scope.get('/console/apps/:grant/disconnect', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const app = await findApp(who, (request.params as { grant: string }).grant);
    return confirmUnlessGone(reply, app, APP_GONE, (app, csrf) =>
      page({
        title: 'Disconnect an app',
        who,
        csrf,
        section: 'apps',
        body: html`<section><p>Disconnect <strong>${
          app.clientName
        }</strong>? Its access and refresh tokens stop working at once, on MCP and A2A;
to use it again, connect it again.</p>
<form method="post" action="/console/apps/${app.grantId}/disconnect">${csrfField(csrf)}
<button type="submit" class="danger">Disconnect</button> <a href="/console/apps">Keep it</a></form></section>`,
      }),
    );
  });

  scope.post('/console/apps/:grant/disconnect', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const grantId = (request.params as { grant: string }).grant;
    // Sent twice (a second tab, a double click): the grant is gone, and the list says so rather than a 404 page. An id
    // of another account's grant reads the same: nothing of it is touched or named (gone.ts).
    const app = await findApp(who, grantId);
    if (!app) return redirectGone(reply, APP_GONE);
    await revokeGrant(oauth, app.grantId, who.account.id);
    // The grant is gone: the app's name comes along for the notice.
    return redirectDone(reply, '/console/apps', 'disconnected', { app: app.clientName });
  });

  /** The account's grant whose id is `grantId`, or undefined: gone, or another account's (which reads the same). */
  async function findApp(who: SignedIn, grantId: string): Promise<ConnectedApp | undefined> {
    return (await listConnectedApps(oauth, who.account.id)).find((a) => a.grantId === grantId);
  }

  async function send(reply: FastifyReply, who: SignedIn, csrf: string, o: { notice?: string }): Promise<FastifyReply> {
    const apps = await listConnectedApps(oauth, who.account.id);
    const owner = who.user.role === 'owner';
    const rows = apps.map(
      (a) => html`<tr><td>${a.clientName}</td><td><code>${a.clientId}</code></td>
<td>${joined(
        a.scopes.map((s) => html`<span class="pill">${s}</span>`),
        ' ',
      )}</td><td>${date(a.connectedAt)}</td><td>${date(a.firstUsedAt)}</td><td>${date(a.lastUsedAt)}</td>
<td>${owner && html`<a href="/console/apps/${a.grantId}/disconnect">Disconnect…</a>`}</td></tr>`,
    );
    const intro = trusted(
      '<p class="muted">Apps you connected with OAuth (MCP clients, assistants, agents) read data for this account ' +
        'with your plan, quota and limits.</p>',
    );
    const head = html`<thead><tr><th>App</th><th>Client id</th><th>Scopes</th><th>Connected</th><th>First used</th>
<th>Last used</th>${ACTIONS_HEADING}</tr></thead>`;
    return sendHtml(
      reply,
      page({
        title: 'Connected apps',
        who,
        csrf,
        section: 'apps',
        body: html`${message('notice', o.notice)}
${intro}
<section><table>${head}
<tbody>${
          rows.length > 0 ? joined(rows, '\n') : html`<tr><td colspan="7" class="muted">No connected apps.</td></tr>`
        }</tbody></table></section>`,
      }),
    );
  }
}
