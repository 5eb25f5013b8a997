/**
 * The marketplace (docs/console.md): every account's published company agents, with the skills of their cards.
 * An owner or admin of another account licenses one and receives a licensed A2A credential, shown once; the
 * licences the account holds are listed below. Sellers see and revoke licences on their Company agents page.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { agentAddresses } from '../../agents/addresses.js';
import { listCredentials } from '../../agents/admin.js';
import { isDemoDeployment } from '../../agents/demo/demo-agents.js';
import { licenseAgent, listMarketplace } from '../../agents/marketplace.js';
import { AdminError } from '../../lib/admin-error.js';
import { html, joined, trusted } from '../html.js';
import { DEMO_NOTE, DEMO_PILL } from './demo-mark.js';
import { doneOf, redirectDone } from './done.js';
import { firstSend, onceField } from './form-once.js';
import { csrfField, date, message, page, secretOnce, sendHtml } from './html.js';
import { refusedForm } from './refusal.js';
import { requireRole, requireUser, type SignedIn } from './signed-in.js';

export function registerMarketplacePage(scope: FastifyInstance): void {
  const { store, clock, agentsUrl } = scope.signedInDeps;

  scope.get('/console/marketplace', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const notice =
      doneOf(request)?.what === 'resent'
        ? 'That form had been sent already, so no second licence was issued: the licence it issued is under ' +
          'Licences in your keys. A secret is shown only once.'
        : undefined;
    return send(reply, who, await reply.generateCsrf(), { notice });
  });

  scope.post('/console/marketplace/:slug/license', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner', 'admin');
    const { slug } = request.params as { slug: string };
    const csrf = await reply.generateCsrf();
    try {
      const issued = await firstSend(request, () =>
        licenseAgent(store, { slug, buyerAccountId: who.account.id }, new Date(clock())),
      );
      if (!issued) return redirectDone(reply, '/console/marketplace', 'resent');
      return send(reply, who, csrf, { secret: issued.credential.secret, slug });
    } catch (error) {
      if (error instanceof AdminError) return send(refusedForm(reply), who, csrf, { error: error.message });
      throw error;
    }
  });

  async function send(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: { secret?: string; slug?: string; error?: string; notice?: string },
  ): Promise<FastifyReply> {
    const entries = await listMarketplace(store);
    const canLicense = who.user.role !== 'member';
    // A one-use token per form: licensing one agent must not use up another's form on the same page.
    const licenseControls = () =>
      html`${csrfField(csrf)}${onceField()}<button type="submit">License this agent</button>`;
    const sellers = new Map(
      await Promise.all(
        [...new Set(entries.map((e) => e.seller_account_id))].map(
          async (id) => [id, await store.getAccount(id)] as const,
        ),
      ),
    );
    const demo = (e: (typeof entries)[number]) => isDemoDeployment(e.slug, sellers.get(e.seller_account_id));
    const cards = entries.map((e) => {
      const own = e.seller_account_id === who.account.id;
      const action = own
        ? html`<p class="muted">Your company’s agent.</p>`
        : canLicense
          ? html`<form method="post" action="/console/marketplace/${e.slug}/license">${licenseControls()}</form>`
          : html`<p class="muted">An owner or admin of your account can license it.</p>`;
      const mark = demo(e) && html` ${DEMO_PILL}`;
      return html`<article class="card" id="agent-${e.slug}"><h2>${e.name}${mark}</h2><p class="muted">${
        e.company
      } · <code>${e.slug}</code></p>
<p>${e.description}</p>
<details><summary>${e.skills.length} skills</summary><ul>${e.skills.map(
        (s) =>
          html`<li><strong>${s.title}</strong> <span class="pill">${
            s.kind === 'read' ? 'licensed' : 'owner only'
          }</span> — ${s.description}</li>`,
      )}</ul></details>${action}</article>`;
    });
    const held = await store.console.listLicencesOfBuyer(who.account.id);
    const heldRows = await Promise.all(
      held.map(async (l) => {
        const deployment = await store.agents.getDeploymentById(l.deployment_id);
        const slug = deployment?.slug ?? '';
        const credential = deployment
          ? (await listCredentials(store, slug)).find((c) => c.id === l.credential_id)
          : undefined;
        const prefix = credential?.prefix ?? '';
        const address = agentAddresses(agentsUrl, slug).a2a;
        const status = l.revoked_at ? html`<span class="pill revoked">revoked by the seller</span>` : 'active';
        return html`<tr${
          l.revoked_at && html` class="muted"`
        }><td><code>${slug}</code></td><td><code>${prefix}</code></td>
<td><code>${address}</code></td><td>${date(l.created_at)}</td><td>${status}</td></tr>`;
      }),
    );
    const issued = o.secret && o.slug ? agentAddresses(agentsUrl, o.slug) : undefined;
    const intro = trusted(
      '<p class="muted">Agents that companies publish. ' +
        "A licence gives your account a credential for the agent's read skills over A2A.</p>",
    );
    const body = html`${message('notice', o.notice)}${message('error', o.error)}${
      o.secret &&
      issued &&
      html`${secretOnce(`Your licensed credential for ${o.slug}:`, o.secret)}<p>Call the agent over A2A at <code>${
        issued.a2a
      }</code> with
<code>Authorization: Bearer</code> and this credential; its extended card lists the skills it reaches.</p>`
    }
${intro}
${entries.some(demo) && DEMO_NOTE}
${cards.length > 0 ? joined(cards, '\n') : html`<p class="muted">No agents are published yet.</p>`}
<h2>Licences your account holds</h2>
<section><table><thead><tr><th>Agent</th><th>Credential</th><th>A2A address</th><th>Since</th><th>Status</th>
</tr></thead>
<tbody>${
      heldRows.length > 0 ? joined(heldRows, '\n') : html`<tr><td colspan="5" class="muted">None yet.</td></tr>`
    }</tbody></table></section>`;
    return sendHtml(reply, page({ title: 'Marketplace', who, csrf, section: 'marketplace', body }));
  }
}
