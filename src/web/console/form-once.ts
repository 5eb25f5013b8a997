/**
 * Forms sent once (docs/console.md, "Sent twice"): a form whose answer shows a new secret cannot redirect to a
 * page that shows it (the secret would have to be kept between the two requests), so it carries a one-use token,
 * `_once`, made with the page. The first send of a token does what the form asks; the same form sent again (a
 * reload of the answer, a double click) finds the token used and does nothing. The CSRF token cannot serve: it
 * stays valid for every form of the session.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type Html, html } from '../html.js';
import { formOf } from './form-fields.js';
import { ConsoleRefusal } from './refusal.js';

const FIELD = '_once';
const TOKEN = /^[A-Za-z0-9_-]{24}$/;
/** A used token is kept this long: longer than a session lives (12 hours), so its form cannot outlive it. */
const KEPT_MS = 24 * 3_600_000;

/** The hidden field of a form sent once: a fresh token each time the form is drawn. */
export function onceField(): Html {
  return html`<input type="hidden" name="${FIELD}" value="${randomBytes(18).toString('base64url')}">`;
}

/**
 * Does `act` if this is the first send of the form's token and gives its result; undefined, without doing it, when
 * the token was sent before. A refusal thrown by `act` gives the token back, so that the corrected form may be sent.
 */
export async function firstSend<T>(request: FastifyRequest, act: () => Promise<T>): Promise<T | undefined> {
  const { store, clock } = request.server.signedInDeps;
  const token = formOf(request).text(FIELD);
  if (!TOKEN.test(token))
    throw new ConsoleRefusal(400, 'This form is out of date. Go back, reload the page and try again.');
  const now = clock();
  const forgetBefore = new Date(now - KEPT_MS).toISOString();
  if (!(await store.console.useFormToken(token, new Date(now).toISOString(), forgetBefore))) return undefined;
  try {
    return await act();
  } catch (error) {
    await store.console.releaseFormToken(token);
    throw error;
  }
}
