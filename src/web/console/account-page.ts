/**
 * Account (docs/console.md): the account's members and roles (the owner adds one — a one-time link to set the
 * password, shown once — or disables one), the signed-in user's password, and their open sessions with sign-out
 * everywhere.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { hashSecret } from '../../access/api-keys.js';
import { changePassword, LockedOutError } from '../../admin/password-changes.js';
import { PASSWORD_MIN_LENGTH } from '../../admin/passwords.js';
import { openSessions } from '../../admin/sessions.js';
import { createUser, disableUser, listUsers, type UserWording } from '../../admin/users.js';
import { AdminError } from '../../lib/admin-error.js';
import { USER_ROLES } from '../../store/console/console-records.js';
import { type Html, html, joined, trusted } from '../html.js';
import { doneOf, redirectDone } from './done.js';
import { formOf } from './form-fields.js';
import { firstSend, onceField } from './form-once.js';
import { ACTIONS_HEADING, csrfField, date, hiddenHeading, message, page, secretBox, sendHtml } from './html.js';
import { notFound, refusedForm } from './refusal.js';
import { requireRole, requireUser, type SignedIn } from './signed-in.js';

/** Refusals name the form's fields by their labels (the select below is “Role”). */
const CONSOLE_WORDING: UserWording = { role: '“Role”' };

export function registerAccountPage(scope: FastifyInstance): void {
  const { store, clock, baseUrl } = scope.signedInDeps;
  const now = () => new Date(clock());

  scope.get('/console/account', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const done = doneOf(request);
    return send(reply, who, await reply.generateCsrf(), { notice: done && (await doneNotice(who, done)) });
  });

  /** What the page says after a change redirected to it (done.ts). */
  async function doneNotice(
    who: SignedIn,
    done: { what: string; value: (name: string) => string },
  ): Promise<string | undefined> {
    switch (done.what) {
      case 'disabled': {
        const user = (await listUsers(store, who.account.id)).find((u) => String(u.id) === done.value('user'));
        return user && `Disabled ${user.email}; their sessions have ended.`;
      }
      case 'resent':
        return (
          'That form had been sent already, so no one was added again: the member is in the list below. Their ' +
          'link is shown only once: if you did not copy it, an operator prints a new one (munidata users ' +
          'reset-password).'
        );
      case 'password-set':
        return 'Your password is set; your other sessions have ended.';
      case 'password-changed':
        return 'Your password is changed; your other sessions have ended.';
      default:
        return undefined;
    }
  }

  scope.post('/console/account/users', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const form = formOf(request);
    const csrf = await reply.generateCsrf();
    try {
      // Sent once (form-once.ts): its answer shows the one-time link, which a second send would only refuse.
      const created = await firstSend(request, () =>
        createUser(
          store,
          {
            accountId: who.account.id,
            email: form.text('email'),
            role: form.text('role'),
            name: form.optional('name'),
          },
          now(),
          baseUrl,
          CONSOLE_WORDING,
        ),
      );
      if (!created) return redirectDone(reply, '/console/account', 'resent');
      return send(reply, who, csrf, { link: created.link, linkFor: created.user.email });
    } catch (error) {
      if (error instanceof AdminError) {
        // The form comes back as it was sent, so that the owner corrects it rather than types it again.
        const typed = { email: form.text('email'), name: form.text('name'), role: form.text('role') };
        return send(refusedForm(reply), who, csrf, { error: error.message, typed });
      }
      throw error;
    }
  });

  scope.post('/console/account/users/:id/disable', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    requireRole(who, 'owner');
    const id = (request.params as { id: string }).id;
    const user = (await listUsers(store, who.account.id)).find((u) => String(u.id) === id);
    if (!user) throw notFound('member');
    if (user.id === who.user.id)
      return send(refusedForm(reply), who, await reply.generateCsrf(), { error: 'You cannot disable yourself.' });
    if (user.disabled_at === null) await disableUser(store, user.id, now());
    return redirectDone(reply, '/console/account', 'disabled', { user: user.id });
  });

  scope.post('/console/account/password', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    const form = formOf(request);
    const csrf = await reply.generateCsrf();
    const next = form.text('password');
    if (next !== form.text('confirm'))
      return send(refusedForm(reply), who, csrf, { error: 'The two new passwords differ.' });
    try {
      const input = { current: form.text('current'), next, address: request.ip, keepSession: who.session.id };
      await changePassword(store, who.user.id, input, now());
      return redirectDone(
        reply,
        '/console/account',
        who.user.password_hash === null ? 'password-set' : 'password-changed',
      );
    } catch (error) {
      if (error instanceof AdminError)
        return send(error instanceof LockedOutError ? reply.code(429) : refusedForm(reply), who, csrf, {
          error: error.message,
        });
      throw error;
    }
  });

  async function send(
    reply: FastifyReply,
    who: SignedIn,
    csrf: string,
    o: {
      notice?: string;
      error?: string;
      link?: string;
      linkFor?: string;
      typed?: { email: string; name: string; role: string };
    },
  ): Promise<FastifyReply> {
    const owner = who.user.role === 'owner';
    const members = await listUsers(store, who.account.id);
    const disableControls = html`${csrfField(csrf)}<button type="submit" class="secondary">Disable</button>`;
    const memberRows = members.map(
      (u) => html`<tr${
        u.disabled_at && html` class="muted"`
      }><td>${u.display_name}</td><td>${u.email}</td><td>${u.role}</td><td>${date(u.created_at)}</td>
<td>${u.disabled_at ? html`<span class="pill revoked">disabled</span>` : u.has_password ? 'active' : 'invited'}</td>
<td>${
        owner &&
        !u.disabled_at &&
        u.id !== who.user.id &&
        html`<form method="post" action="/console/account/users/${u.id}/disable">${disableControls}</form>`
      }</td></tr>`,
    );
    const sessions = await openSessions(store, who.user.id, now());
    const current = hashSecret(who.token);
    const sessionRows = sessions.map(
      (s) => html`<tr><td>${date(s.created_at)}</td><td>${date(s.last_seen_at)}</td><td>${
        s.user_agent ?? '—'
      }</td><td>${s.address ?? '—'}</td>
<td>${s.id === current && html`<strong>this session</strong>`}</td></tr>`,
    );
    const typed = o.typed ?? { email: '', name: '', role: 'member' };
    const invite = owner
      ? html`<h2>Add a member</h2>
<form method="post" action="/console/account/users" class="card">${csrfField(csrf)}${onceField()}
<div class="grid2"><div><label for="email">Email</label><input id="email" name="email" type="email" value="${
          typed.email
        }" required></div>
<div><label for="name">Name</label><input id="name" name="name" type="text" maxlength="100" value="${
          typed.name
        }"></div></div>
<label for="role">Role</label><select id="role" name="role">${USER_ROLES.map(
          (r) => html`<option value="${r}"${r === typed.role && html` selected`}>${r}</option>`,
        )}</select>
<button type="submit">Add member</button></form>`
      : html`<p class="muted">The account’s owner adds and disables members.</p>`;
    const sendLink = html`<strong>Send ${o.linkFor} this link</strong> to set their password.`;
    const link = o.link && secretBox(html`${sendLink} It works once, for 24 hours, and is shown only now.`, o.link);
    const membersHead = html`<thead><tr><th>Name</th><th>Email</th><th>Role</th><th>Added</th><th>Status</th>${
      ACTIONS_HEADING
    }</tr></thead>`;
    const thisSession = hiddenHeading('This session');
    const sessionsHead = html`<thead><tr><th>Signed in</th><th>Last seen</th><th>Browser</th><th>Address</th>${
      thisSession
    }</tr></thead>`;
    const signOutButton = html`<button type="submit" class="danger">Sign out everywhere</button>`;
    const body = html`${message('notice', o.notice)}${message('error', o.error)}${link}
<section><table><tbody><tr><th>Account</th><td>${who.account.name} (id ${who.account.id})</td></tr>
<tr><th>Plan</th><td>${who.plan.name}</td></tr><tr><th>You</th><td>${
      who.user.email
    } · ${who.user.role}</td></tr></tbody></table></section>
<h2>Members</h2>
<section id="members"><table>${membersHead}<tbody>${joined(memberRows, '\n')}</tbody></table></section>
${invite}
${passwordForm(csrf, who.user.password_hash !== null)}
<h2>Your sessions</h2>
<section id="sessions"><table>${sessionsHead}<tbody>${joined(sessionRows, '\n')}</tbody></table>
<form method="post" action="/console/sign-out-everywhere">${csrfField(csrf)}${signOutButton}</form></section>`;
    return sendHtml(reply, page({ title: 'Account', who, csrf, section: 'account', body }));
  }
}

/**
 * Change of password: with the current one; a user who has none yet (the demo owner, signed in with the link
 * printed at start) sets one without it.
 */
function passwordForm(csrf: string, hasPassword: boolean): Html {
  const currentInput = trusted(
    '<input id="current" name="current" type="password" autocomplete="current-password" required>',
  );
  const current = hasPassword
    ? html`<label for="current">Current password</label>${currentInput}`
    : trusted(
        '<p class="muted" id="no-password">You signed in with a one-time link and have no password yet. ' +
          'Set one to sign in with your email next time.</p>',
      );
  const passwordLabel = html`<label for="password">New password (at least ${PASSWORD_MIN_LENGTH} characters)</label>`;
  const confirmInput = html`<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>`;
  return html`<h2>${hasPassword ? 'Change your password' : 'Set a password'}</h2>
<form method="post" action="/console/account/password" class="card">${csrfField(csrf)}
${current}
${passwordLabel}<input id="password" name="password" type="password" autocomplete="new-password" minlength="${
    PASSWORD_MIN_LENGTH
  }" required>
<label for="confirm">The same again</label>${confirmInput}
<button type="submit">${hasPassword ? 'Change password' : 'Set password'}</button></form>`;
}
