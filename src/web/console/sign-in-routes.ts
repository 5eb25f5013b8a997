/**
 * Signing in and out (docs/console.md): the sign-in form with its lock-out, sign-out, sign-out everywhere, the
 * one-time set-password link of a new user and the one-time sign-in link of the demo owner.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setPasswordWithLink } from '../../admin/password-changes.js';
import { PASSWORD_MIN_LENGTH } from '../../admin/passwords.js';
import { endOtherSessions, endSession, startSession } from '../../admin/sessions.js';
import { checkSignIn, LOCKED_OUT_MESSAGE } from '../../admin/sign-in.js';
import { canSetPassword, useLink } from '../../admin/users.js';
import { AdminError } from '../../lib/admin-error.js';
import type { UserRecord } from '../../store/console/console-records.js';
import { type Html, html, trusted } from '../html.js';
import { formOf, queryOf } from './form-fields.js';
import { csrfField, message, plainPage, sendHtml } from './html.js';
import { refusedForm } from './refusal.js';
import { requireUser } from './signed-in.js';

const LINK_UNUSABLE = 'This link was used already, has expired or is not right. Ask your account owner for a new one.';

export function registerSignInRoutes(scope: FastifyInstance): void {
  scope.get('/console/sign-in', async (request, reply) => {
    const query = queryOf(request);
    const notice = query.optional('signed_out') !== undefined ? 'You are signed out.' : undefined;
    return sendPage(reply, 200, signInPage(await reply.generateCsrf(), { next: query.optional('next'), notice }));
  });

  scope.post('/console/sign-in', async (request, reply) => {
    const form = formOf(request);
    const { store, clock } = scope.signedInDeps;
    const email = form.text('email');
    const next = form.optional('next');
    const outcome = await checkSignIn(
      store,
      { email, password: form.text('password'), address: request.ip },
      new Date(clock()),
    );
    if (!outcome.ok) {
      const text = outcome.reason === 'locked' ? LOCKED_OUT_MESSAGE : 'The email or the password is not right.';
      return sendPage(
        reply,
        outcome.reason === 'locked' ? 429 : 401,
        signInPage(await reply.generateCsrf(), { next, email, error: text }),
      );
    }
    await signIn(request, reply, outcome.user);
    return reply.redirect(safeNext(next), 303);
  });

  scope.post('/console/sign-out', async (request, reply) => {
    const { store, clock } = scope.signedInDeps;
    const token = request.cookies[scope.consoleCookies.session];
    if (token) await endSession(store, token, new Date(clock()));
    reply.clearCookie(scope.consoleCookies.session, scope.consoleCookies.options);
    return reply.redirect('/console/sign-in?signed_out', 303);
  });

  scope.post('/console/sign-out-everywhere', async (request, reply) => {
    const who = await requireUser(request, reply);
    if (!who) return reply;
    await endOtherSessions(scope.signedInDeps.store, who.user.id, new Date(scope.signedInDeps.clock()));
    reply.clearCookie(scope.consoleCookies.session, scope.consoleCookies.options);
    return reply.redirect('/console/sign-in?signed_out', 303);
  });

  // A link's token is used by the form's POST, not by opening the link (mail scanners open links); opening it only
  // looks whether it can still be used, so that nobody types a password twice to learn that it cannot.
  scope.get('/console/set-password', async (request, reply) => {
    const { store, clock } = scope.signedInDeps;
    const token = queryOf(request).text('token');
    if (!(await canSetPassword(store, token, new Date(clock())))) {
      return sendPage(reply, 400, plainPage('Set your password', html`${message('error', LINK_UNUSABLE)}`));
    }
    return sendPage(reply, 200, setPasswordPage(await reply.generateCsrf(), token));
  });

  scope.post('/console/set-password', async (request, reply) => {
    const form = formOf(request);
    const { store, clock } = scope.signedInDeps;
    const token = form.text('token');
    const password = form.text('password');
    const refuse = async (problem: string) =>
      sendHtml(refusedForm(reply), setPasswordPage(await reply.generateCsrf(), token, problem));
    if (password !== form.text('confirm')) return refuse('The two passwords differ.');
    let user: UserRecord | undefined;
    try {
      user = await setPasswordWithLink(store, token, password, new Date(clock()));
    } catch (error) {
      if (error instanceof AdminError) return refuse(error.message);
      throw error;
    }
    if (!user) return refuse(LINK_UNUSABLE);
    await signIn(request, reply, user);
    return reply.redirect('/console', 303);
  });

  // The demo owner's link printed by `npm start`: one click signs in (once; the next start prints a new one).
  scope.get('/console/link', async (request, reply) => {
    const { store, clock } = scope.signedInDeps;
    const link = await useLink(store, queryOf(request).text('token'), new Date(clock()));
    if (link?.purpose !== 'sign-in') {
      return sendPage(
        reply,
        400,
        signInPage(await reply.generateCsrf(), {
          error: 'This sign-in link was used already or has expired. Sign in with your password.',
        }),
      );
    }
    await signIn(request, reply, link.user);
    return reply.redirect('/console', 303);
  });
}

async function signIn(request: FastifyRequest, reply: FastifyReply, user: UserRecord): Promise<void> {
  const { store, clock } = request.server.signedInDeps;
  const cookies = request.server.consoleCookies;
  const started = await startSession(
    store,
    user,
    { userAgent: request.headers['user-agent'], address: request.ip },
    new Date(clock()),
  );
  reply.setCookie(cookies.session, started.token, { ...cookies.options, expires: started.expiresAt });
}

/**
 * Back to the console or explorer page asked for before signing in; never to another site, and only a path of
 * printable ASCII (what `requireUser` sends, percent-encoded): anything else, such as CR, LF or a character a
 * header cannot carry, falls back to the console.
 */
function safeNext(next: string | undefined): string {
  return next && /^\/(?:console|explore)(?:[/?#]|$)/.test(next) && /^[\x21-\x7e]+$/.test(next) ? next : '/console';
}

function sendPage(reply: FastifyReply, status: number, body: Html): FastifyReply {
  return sendHtml(reply.code(status), body);
}

function signInPage(csrf: string, o: { next?: string; email?: string; error?: string; notice?: string }): Html {
  const passwordInput = trusted(
    '<input id="password" name="password" type="password" autocomplete="current-password" required>',
  );
  return plainPage(
    'Sign in',
    html`${message('error', o.error)}${message('notice', o.notice)}
<form method="post" action="/console/sign-in" class="card">${csrfField(csrf)}
<input type="hidden" name="next" value="${o.next ?? ''}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${
      o.email ?? ''
    }">
<label for="password">Password</label>${passwordInput}
<button type="submit">Sign in</button>
</form>
<p class="muted">No password yet? Use the one-time link your account owner gave you.</p>`,
  );
}

function setPasswordPage(csrf: string, token: string, error?: string): Html {
  const confirmInput = html`<input id="confirm" name="confirm" type="password" autocomplete="new-password" required>`;
  return plainPage(
    'Set your password',
    html`${message('error', error)}
<form method="post" action="/console/set-password" class="card">${csrfField(csrf)}
<input type="hidden" name="token" value="${token}">
<label for="password">New password (at least ${PASSWORD_MIN_LENGTH} characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="${
      PASSWORD_MIN_LENGTH
    }" required>
<label for="confirm">The same again</label>${confirmInput}
<button type="submit">Set password and sign in</button>
</form>`,
  );
}
