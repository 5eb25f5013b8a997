/**
 * Connecting an app (docs/oauth.md, Consent): the page an OAuth client sends the account holder to. Signed in,
 * they see the app's name, where their browser will be sent back to, how the app is known (metadata document,
 * registration, or registered by the operator) and the scopes it asks, may narrow them, and allow or refuse. The
 * authorization request is the one of this browser (the library's interaction cookie), never one named in a link
 * alone. Owners connect apps, as they create keys: a token acts for the whole account.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DOMAINS, isScope } from '../../lib/domains.js';
import { OAUTH_PATHS } from '../../lib/oauth-resource.js';
import type { AuthorizationServer } from '../../oauth/authorization-server.js';
import { approve, browserInteraction, type ConsentRequest, consentRequest } from '../../oauth/consent.js';
import { html } from '../html.js';
import { formOf } from './form-fields.js';
import { csrfField, page, sendHtml } from './html.js';
import { ConsoleRefusal, refusedForm } from './refusal.js';
import { requireRole, requireUser, type SignedIn } from './signed-in.js';

const ORIGINS: Record<ConsentRequest['origin'], string> = {
  'metadata-document': 'identified by its metadata document at its own address (its client id)',
  registration: 'registered itself with this service (dynamic registration): its name is what it says it is',
  cli: 'registered by the operator of this service',
};

export function registerConnectPage(scope: FastifyInstance, oauth: AuthorizationServer): void {
  const path = `${OAUTH_PATHS.consent}/:uid`;

  scope.get(path, async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    return send(reply, who, await reply.generateCsrf(), await ask(request, reply));
  });

  scope.post(path, async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const interaction = await thisBrowsersInteraction(request, reply);
    const form = formOf(request);
    const allowing = form.text('decision') === 'allow';
    const allowed = allowing ? form.list('scopes').filter(isScope) : [];
    // Allow with every scope unticked is no answer (docs/oauth.md, Consent): the page says so and asks again, the
    // request kept; refusing is the Refuse button's, never a silent reading of an empty Allow.
    if (allowing && allowed.length === 0) {
      return send(refusedForm(reply), who, await reply.generateCsrf(), await ask(request, reply), NOTHING_TICKED);
    }
    if (allowed.length > 0) requireRole(who, 'owner');
    const next = await approve(oauth.provider, interaction, who.account.id, allowed);
    return reply.redirect(next, 303);
  });

  async function thisBrowsersInteraction(request: FastifyRequest, reply: FastifyReply) {
    const interaction = await browserInteraction(oauth.provider, request.raw, reply.raw);
    if (!interaction || interaction.uid !== (request.params as { uid: string }).uid) {
      throw new ConsoleRefusal(
        400,
        'This authorization request did not start in this browser, or it has expired. Start again from the app.',
      );
    }
    return interaction;
  }

  async function ask(request: FastifyRequest, reply: FastifyReply): Promise<ConsentRequest> {
    const asked = await consentRequest(oauth.provider, await thisBrowsersInteraction(request, reply));
    if (!asked) throw new ConsoleRefusal(400, 'The app that asked is no longer known. Start again from the app.');
    return asked;
  }
}

const NOTHING_TICKED =
  'Nothing was allowed: no scope was ticked. Tick what the app may read and press Allow, or press Refuse to refuse.';

function send(reply: FastifyReply, who: SignedIn, csrf: string, asked: ConsentRequest, error?: string): FastifyReply {
  // The form's answer redirects (through the authorization endpoint) to the app: browsers hold a form's
  // redirects to the page's `form-action`, so the app's origin joins it on this page only.
  const csp = String(reply.getHeader('content-security-policy') ?? '');
  if (csp && asked.redirectOrigin) {
    reply.header(
      'content-security-policy',
      csp.replace("form-action 'self'", `form-action 'self' ${asked.redirectOrigin}`),
    );
  }
  const inPlan = new Set<string>(who.plan.domains.map((d) => DOMAINS[d].scope));
  const owner = who.user.role === 'owner';
  const scopes = asked.scopes.map((s) =>
    inPlan.has(s)
      ? html`<label><input type="checkbox" name="scopes" value="${s}" checked> ${s}</label>`
      : html`<label class="muted"><input type="checkbox" disabled> ${s} (not in your plan)</label>`,
  );
  const allow = owner
    ? html`<button type="submit" name="decision" value="allow">Allow</button>`
    : html`<p class="muted">Only the account’s owner connects apps.</p>`;
  return sendHtml(
    reply,
    page({
      title: 'Connect an app',
      who,
      csrf,
      section: 'apps',
      body: html`${error && html`<p class="error" role="alert">${error}</p>`}<section class="card">
<p><strong id="client-name">${asked.clientName}</strong> wants to read munidata data for <strong>${
        who.account.name
      }</strong>, with your plan, quota and limits.</p>
<dl>
<dt>Sends you back to</dt><dd id="redirect-host"><code>${asked.redirectHost}</code></dd>
<dt>Client id</dt><dd><code>${asked.clientId}</code></dd>
<dt>How it is known</dt><dd id="client-origin">${ORIGINS[asked.origin]}</dd>
</dl>
<form method="post" action="${`${OAUTH_PATHS.consent}/${asked.uid}`}">${csrfField(csrf)}
<fieldset><legend>It may read</legend>${scopes}
<p class="muted">Untick what it should not read; Refuse gives it nothing.</p></fieldset>
${allow} <button type="submit" name="decision" value="deny" class="link">Refuse</button>
</form>
<p class="muted">You can disconnect it at any time under Connected apps.</p>
</section>`,
    }),
  );
}
