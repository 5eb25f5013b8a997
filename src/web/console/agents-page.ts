/**
 * Company agents (docs/console.md), for owners and admins: the account's deployments with publish and pause,
 * upload of a deployment file (the JSON or YAML `munidata agents create` takes, the same validation and field
 * paths), and per deployment its credentials (created — shown once —, listed, revoked) and the licences sold on
 * the marketplace. The same functions as `munidata agents` (src/agents/admin.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { accountDeployment, accountDeployments, uploadDeployment } from '../../agents/accounts.js';
import { agentAddresses } from '../../agents/addresses.js';
import {
  type CredentialView,
  createCredential,
  listCredentials,
  revokeCredential,
  setDeploymentStatus,
  specOf,
} from '../../agents/admin.js';
import { isDemoDeployment } from '../../agents/demo/demo-agents.js';
import { DeploymentSpecError } from '../../agents/deployment-spec.js';
import { revokeLicence } from '../../agents/marketplace.js';
import { AdminError } from '../../lib/admin-error.js';
import type { DeploymentRecord } from '../../store/agent-records.js';
import { type Html, html, joined, trusted } from '../html.js';
import { DEMO_NOTE, DEMO_PILL } from './demo-mark.js';
import { doneOf, redirectDone } from './done.js';
import { formOf } from './form-fields.js';
import { firstSend, onceField } from './form-once.js';
import { ACTIONS_HEADING, confirmPage, csrfField, date, message, page, secretOnce, sendHtml } from './html.js';
import { notFound, refusedForm } from './refusal.js';
import { revokedPage } from './revoked.js';
import { requireRole, requireUser, type SignedIn } from './signed-in.js';

type Params = { slug: string; id?: string };

export function registerAgentsPage(scope: FastifyInstance): void {
  const { store, clock, agentsUrl } = scope.signedInDeps;
  const now = () => new Date(clock());

  /** The signed-in owner or admin, or undefined after answering. */
  async function companyAdmin(
    request: Parameters<typeof requireUser>[0],
    reply: FastifyReply,
  ): Promise<SignedIn | undefined> {
    const who = await requireUser(request, reply);
    if (who) requireRole(who, 'owner', 'admin');
    return who;
  }

  async function ownDeployment(who: SignedIn, slug: string): Promise<DeploymentRecord> {
    const record = await accountDeployment(store, who.account.id, slug);
    if (!record) throw notFound('deployment');
    return record;
  }

  /** A credential of the deployment by the id in a link; undefined for another deployment's or a missing one. */
  async function credentialOf(record: DeploymentRecord, id: string | undefined): Promise<CredentialView | undefined> {
    return (await listCredentials(store, record.slug)).find((c) => String(c.id) === id);
  }

  /** A licence sold on the deployment by the id in a link; undefined for another deployment's or a missing one. */
  async function licenceOf(record: DeploymentRecord, id: string | undefined) {
    return (await store.console.listLicencesOfDeployments([record.id])).find((l) => String(l.id) === id);
  }

  /**
   * The deployment and credential a revoke link or form names. The page and its form answer the same 404 for one
   * the account does not have (another deployment's, another account's, none).
   */
  async function askedCredential(who: SignedIn, params: Params) {
    const record = await ownDeployment(who, params.slug);
    const credential = await credentialOf(record, params.id);
    if (!credential) throw notFound('credential');
    return { record, credential };
  }

  /** The deployment and licence a revoke link or form names, as askedCredential. */
  async function askedLicence(who: SignedIn, params: Params) {
    const record = await ownDeployment(who, params.slug);
    const licence = await licenceOf(record, params.id);
    if (!licence) throw notFound('licence');
    return { record, licence };
  }

  /**
   * The page a credential's or a licence's Revoke… link opens: the confirmation, or, revoked already, since when
   * (revoked.ts). Both are things of one deployment and go back to its page, so the two differ only in their words.
   */
  function revokePage(
    who: SignedIn,
    csrf: string,
    record: DeploymentRecord,
    o: {
      what: 'credential' | 'licence';
      id: number;
      named: Html | string;
      revokedAt: string | null;
      /** What being revoked means, for the revoked page. */
      refused: string;
      /** What revoking does, after the confirmation's question. */
      effect: string;
    },
  ): Html {
    const back = `/console/agents/${record.slug}`;
    return o.revokedAt
      ? revokedPage({
          who,
          csrf,
          section: 'agents',
          title: `A revoked ${o.what}`,
          subject: html`The ${o.named}`,
          since: o.revokedAt,
          refused: o.refused,
          back: { href: back, label: `Back to ${record.slug}` },
        })
      : confirmPage({
          who,
          csrf,
          section: 'agents',
          title: `Revoke a ${o.what}`,
          question: html`Revoke the ${o.named}? ${o.effect}`,
          action: `${back}/${o.what}s/${o.id}/revoke`,
          button: `Revoke this ${o.what}`,
          back,
        });
  }

  scope.get('/console/agents', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const done = doneOf(request);
    const record = done && (await accountDeployment(store, who.account.id, done.value('slug')));
    return listPage(reply, who, await reply.generateCsrf(), { notice: done && listNotice(done.what, record) });
  });

  /** What the list says after a change redirected to it (done.ts), of the account's deployment it names. */
  function listNotice(what: string, record: DeploymentRecord | undefined): string | undefined {
    if (what === 'upload-resent')
      return (
        'That form had been sent already, so the file was not uploaded again: ' + 'the deployment is in the list below.'
      );
    if (!record) return undefined;
    const named = `“${specOf(record).name}” (${record.slug})`;
    switch (what) {
      case 'created':
        return `Created the draft ${named}, revision ${record.revision}.`;
      case 'updated':
        return `Updated ${named}, revision ${record.revision}.`;
      case 'published':
        return `${record.slug} is published: it answers on its addresses.`;
      case 'paused':
        return `${record.slug} is paused: its addresses answer 404.`;
      default:
        return undefined;
    }
  }

  scope.post('/console/agents/upload', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const form = formOf(request);
    const csrf = await reply.generateCsrf();
    const text = form.text('file');
    const filename = form.optional('filename');
    try {
      // Sent once (form-once.ts): two sends of a new slug at the same moment would both try to create it.
      const uploaded = await firstSend(request, async () => {
        if (!text.trim()) throw new AdminError('Choose a deployment file, or paste its content.');
        return uploadDeployment(store, who.account.id, { text, name: filename }, now());
      });
      if (!uploaded) return redirectDone(reply, '/console/agents', 'upload-resent');
      const { record, created } = uploaded;
      return redirectDone(reply, '/console/agents', created ? 'created' : 'updated', { slug: record.slug });
    } catch (error) {
      if (error instanceof DeploymentSpecError)
        return listPage(refusedForm(reply), who, csrf, { issues: error.issues, text, filename });
      if (error instanceof AdminError)
        return listPage(refusedForm(reply), who, csrf, { error: error.message, text, filename });
      throw error;
    }
  });

  for (const [action, status] of [
    ['publish', 'live'],
    ['pause', 'paused'],
  ] as const) {
    scope.post(`/console/agents/:slug/${action}`, async (request, reply) => {
      const who = await companyAdmin(request, reply);
      if (!who) return reply;
      const record = await ownDeployment(who, (request.params as Params).slug);
      await setDeploymentStatus(store, record.slug, status, now());
      return redirectDone(reply, '/console/agents', status === 'live' ? 'published' : 'paused', { slug: record.slug });
    });
  }

  scope.get('/console/agents/:slug', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const record = await ownDeployment(who, (request.params as Params).slug);
    const done = doneOf(request);
    const notice = done && (await deploymentNotice(record, done.what, done.value('id')));
    return deploymentPage(reply, who, await reply.generateCsrf(), record, { notice });
  });

  /** What a deployment's page says after a change redirected to it (done.ts); `id` is a credential's or licence's. */
  async function deploymentNotice(record: DeploymentRecord, what: string, id: string): Promise<string | undefined> {
    switch (what) {
      case 'resent':
        return (
          'That form had been sent already, so nothing new was created: the credential it made is in the list ' +
          'below. A secret is shown only once: if you did not copy it, revoke that credential and create another.'
        );
      case 'credential-revoked': {
        const credential = await credentialOf(record, id);
        return credential && `Revoked the credential ${credential.prefix}: its next request is refused.`;
      }
      case 'licence-revoked': {
        const licence = await licenceOf(record, id);
        const buyer = licence && (await store.getAccount(licence.buyer_account_id));
        return (
          licence &&
          `Revoked the licence of ${buyer?.name ?? `account ${licence.buyer_account_id}`}: ` +
            'their credential is refused from its next request.'
        );
      }
      default:
        return undefined;
    }
  }

  scope.post('/console/agents/:slug/credentials', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const record = await ownDeployment(who, (request.params as Params).slug);
    const form = formOf(request);
    const csrf = await reply.generateCsrf();
    try {
      const created = await firstSend(request, () =>
        createCredential(
          store,
          { slug: record.slug, channel: form.text('channel'), label: form.text('label').trim() || undefined },
          now(),
        ),
      );
      if (!created) return redirectDone(reply, `/console/agents/${record.slug}`, 'resent');
      return deploymentPage(reply, who, csrf, record, { secret: created.secret, created: created.credential });
    } catch (error) {
      if (error instanceof AdminError)
        return deploymentPage(refusedForm(reply), who, csrf, record, { error: error.message });
      throw error;
    }
  });

  // A credential or licence revoked already gets a page saying since when (revoked.ts); one the account does not
  // have is a 404, as its form answers.
  scope.get('/console/agents/:slug/credentials/:id/revoke', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const { record, credential } = await askedCredential(who, request.params as Params);
    const csrf = await reply.generateCsrf();
    return sendHtml(
      reply,
      revokePage(who, csrf, record, {
        what: 'credential',
        id: credential.id,
        named: html`${credential.channel.toUpperCase()} credential <code>${credential.prefix}</code> of ${record.slug}`,
        revokedAt: credential.revoked_at,
        refused: 'every request with it is refused',
        effect: 'Its next request is refused.',
      }),
    );
  });

  scope.post('/console/agents/:slug/credentials/:id/revoke', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const { record, credential } = await askedCredential(who, request.params as Params);
    if (credential.revoked_at === null) await revokeCredential(store, credential.id, now());
    return redirectDone(reply, `/console/agents/${record.slug}`, 'credential-revoked', { id: credential.id });
  });

  scope.get('/console/agents/:slug/licences/:id/revoke', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const { record, licence } = await askedLicence(who, request.params as Params);
    const buyer = await store.getAccount(licence.buyer_account_id);
    const csrf = await reply.generateCsrf();
    return sendHtml(
      reply,
      revokePage(who, csrf, record, {
        what: 'licence',
        id: licence.id,
        named: `licence of ${buyer?.name ?? `account ${licence.buyer_account_id}`} to ${record.slug}`,
        revokedAt: licence.revoked_at,
        refused: 'their credential is refused on every request',
        effect: 'Their credential is refused from its next request.',
      }),
    );
  });

  scope.post('/console/agents/:slug/licences/:id/revoke', async (request, reply) => {
    const who = await companyAdmin(request, reply);
    if (!who) return reply;
    const { record, licence } = await askedLicence(who, request.params as Params);
    if (licence.revoked_at === null) await revokeLicence(store, licence.id, now());
    return redirectDone(reply, `/console/agents/${record.slug}`, 'licence-revoked', { id: licence.id });
  });

  async function listPage(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: {
      notice?: string;
      error?: string;
      issues?: readonly { path: string; message: string }[];
      text?: string;
      filename?: string;
    },
  ): Promise<FastifyReply> {
    const deployments = await accountDeployments(store, who.account.id);
    const demo = (slug: string) => isDemoDeployment(slug, who.account);
    const rows = deployments.map((d) => {
      const next = d.status === 'live' ? 'pause' : 'publish';
      const button = html`<button type="submit" class="secondary">${next === 'pause' ? 'Pause' : 'Publish'}</button>`;
      const mark = demo(d.slug) && html` ${DEMO_PILL}`;
      return html`<tr><td><a href="/console/agents/${d.slug}">${d.name}</a>${mark}<br><code>${d.slug}</code></td>
<td><span class="pill ${d.status}">${d.status}</span></td><td>${d.channels.join(', ')}</td><td class="num">${
        d.revision
      }</td><td>${date(d.updated_at)}</td>
<td><form method="post" action="/console/agents/${d.slug}/${next}">${csrfField(csrf)}${button}</form></td></tr>`;
    });
    const issues =
      o.issues &&
      html`<div class="error" role="alert"><strong>The deployment file is not valid:</strong><ul>${o.issues.map(
        (i) => html`<li><code class="field-path">${i.path || '(file)'}</code>: ${i.message}</li>`,
      )}</ul></div>`;
    const deploymentsHead = html`<thead><tr><th>Deployment</th><th>Status</th><th>Channels</th>
<th class="num">Revision</th><th>Updated</th>${ACTIONS_HEADING}</tr></thead>`;
    const agentsCreate = html`<code>munidata agents create</code>`;
    const fileInput = trusted(
      '<input id="file-input" type="file" accept=".json,.yaml,.yml,application/json,text/yaml" ' +
        'data-into="file" data-name="filename">',
    );
    const body = html`${message('notice', o.notice)}${message('error', o.error)}${issues}
${deployments.some((d) => demo(d.slug)) && DEMO_NOTE}
<section><table>${deploymentsHead}
<tbody>${
      rows.length > 0
        ? joined(rows, '\n')
        : html`<tr><td colspan="6" class="muted">No deployments yet: upload a deployment file below.</td></tr>`
    }</tbody></table></section>
<h2>Upload a deployment file</h2>
<form method="post" action="/console/agents/upload" class="card">${csrfField(csrf)}${onceField()}
<p class="muted">The JSON or YAML file ${agentsCreate} takes (docs/agents.md). A new slug becomes a draft of this
account; the slug of one of your deployments replaces its file.</p>
<label for="file-input">File</label>${fileInput}
<input type="hidden" id="filename" name="filename" value="${o.filename ?? ''}">
<label for="file">Content</label><textarea id="file" name="file" spellcheck="false">${o.text ?? ''}</textarea>
<button type="submit">Upload</button>
</form>`;
    return sendHtml(reply, page({ title: 'Company agents', who, csrf, section: 'agents', body }));
  }

  async function deploymentPage(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    record: DeploymentRecord,
    o: { secret?: string; created?: CredentialView; notice?: string; error?: string },
  ): Promise<FastifyReply> {
    const spec = specOf(record);
    const demo = isDemoDeployment(record.slug, who.account);
    const urls = agentAddresses(agentsUrl, record.slug);
    const credentials = await listCredentials(store, record.slug);
    const licences = await store.console.listLicencesOfDeployments([record.id]);
    const licensedIds = new Set(licences.map((l) => l.credential_id));
    const credentialRows = credentials
      .filter((c) => !licensedIds.has(c.id))
      .map(
        (c) => html`<tr${
          c.revoked_at && html` class="muted"`
        }><td>${c.label ?? '—'}</td><td><code>${c.prefix}</code></td><td>${c.channel.toUpperCase()}</td>
<td>${c.licensed ? 'licensed (read skills)' : 'full'}</td><td>${date(c.created_at)}</td>
<td>${revokedOr(c.revoked_at)}</td>
<td>${
          !c.revoked_at && html`<a href="/console/agents/${record.slug}/credentials/${c.id}/revoke">Revoke…</a>`
        }</td></tr>`,
      );
    const byId = new Map(credentials.map((c) => [c.id, c]));
    const licenceRows = await Promise.all(
      licences.map(async (l) => {
        const buyer = await store.getAccount(l.buyer_account_id);
        const buyerName = buyer?.name ?? `account ${l.buyer_account_id}`;
        const prefix = byId.get(l.credential_id)?.prefix ?? '';
        const revoke =
          !l.revoked_at && html`<a href="/console/agents/${record.slug}/licences/${l.id}/revoke">Revoke…</a>`;
        return html`<tr${l.revoked_at && html` class="muted"`}><td>${buyerName}</td><td><code>${prefix}</code></td>
<td>${date(l.created_at)}</td><td>${revokedOr(l.revoked_at)}</td><td>${revoke}</td></tr>`;
      }),
    );
    const credentialsHead = html`<thead><tr><th>Label</th><th>Credential</th><th>Channel</th><th>Reach</th>
<th>Created</th><th>Status</th>${ACTIONS_HEADING}</tr></thead>`;
    const labelInput = html`<input id="label" name="label" type="text" maxlength="100" placeholder="Who uses it">`;
    const body = html`${message('notice', o.notice)}${message('error', o.error)}${
      o.secret && secretOnce(`New ${o.created?.channel.toUpperCase()} credential for ${record.slug}:`, o.secret)
    }
${demo && DEMO_NOTE}
<section><p>${spec.description}</p>
<table><tbody>
<tr><th>Status</th><td><span class="pill ${record.status}">${record.status}</span>${
      demo && html` ${DEMO_PILL}`
    } · revision ${record.revision}</td></tr>
<tr><th>Card</th><td><code>${urls.card}</code></td></tr>
${spec.channels.includes('a2a') && html`<tr><th>A2A</th><td><code>${urls.a2a}</code></td></tr>`}
${spec.channels.includes('mcp') && html`<tr><th>MCP</th><td><code>${urls.mcp}</code></td></tr>`}
</tbody></table></section>
<h2>Credentials</h2>
<section><table>${credentialsHead}
<tbody>${
      credentialRows.length > 0
        ? joined(credentialRows, '\n')
        : html`<tr><td colspan="7" class="muted">No credentials yet.</td></tr>`
    }</tbody></table>
<form method="post" action="/console/agents/${record.slug}/credentials">${csrfField(csrf)}${onceField()}
<div class="grid2"><div><label for="channel">Channel</label><select id="channel" name="channel">${spec.channels.map(
      (c) => html`<option value="${c}">${c.toUpperCase()}</option>`,
    )}</select></div>
<div><label for="label">Label</label>${labelInput}</div></div>
<button type="submit">Create credential</button></form></section>
<h2>Licences sold on the marketplace</h2>
<section><table><thead><tr><th>Buyer</th><th>Credential</th><th>Since</th><th>Status</th>${ACTIONS_HEADING}</tr></thead>
<tbody>${
      licenceRows.length > 0
        ? joined(licenceRows, '\n')
        : html`<tr><td colspan="5" class="muted">No licences yet.</td></tr>`
    }</tbody></table></section>
<p><a href="/console/agents">All deployments</a></p>`;
    return sendHtml(reply, page({ title: spec.name, who, csrf, section: 'agents', body }));
  }
}

/** A credential's or licence's status: whether it works, or since when it does not. */
function revokedOr(revokedAt: string | null): Html {
  return revokedAt ? html`<span class="pill revoked">revoked ${date(revokedAt)}</span>` : html`active`;
}
