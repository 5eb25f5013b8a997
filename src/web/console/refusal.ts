/**
 * A refused console request (no session, wrong role, not this account's, a request malformed at the HTTP level) and
 * its HTML page; and the status of a refused form, drawn again with its message (`refusedForm`).
 */
import type { FastifyReply } from 'fastify';
import { htmlDocument } from '../document.js';
import { html } from '../html.js';
import { sendHtml } from './html.js';

export class ConsoleRefusal extends Error {
  override name = 'ConsoleRefusal';
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** Not found, whether it does not exist or belongs to another account: the answer does not tell which. */
export function notFound(what: string): ConsoleRefusal {
  return new ConsoleRefusal(404, `No such ${what} in your account.`);
}

/**
 * A form the console refuses (a field missing or not valid, a change the service does not make) is drawn again with
 * its message and what was typed, answered 422 Unprocessable Content: the request was well formed, its content was
 * not taken (docs/console.md, Forms). A request malformed at the HTTP level (a field sent twice, a form out of date,
 * a link that cannot be used) is a 400 refusal page instead, and a bad CSRF token is the CSRF plugin's answer.
 */
const FORM_REFUSED = 422;

/** The reply of a refused form, to draw the form again on. */
export function refusedForm(reply: FastifyReply): FastifyReply {
  return reply.code(FORM_REFUSED);
}

const TITLES: Record<number, string> = {
  400: 'That did not work',
  401: 'Signed out',
  403: 'Not allowed',
  404: 'Not found',
  500: 'Server error',
};

export function renderRefusal(reply: FastifyReply, refusal: ConsoleRefusal): FastifyReply {
  const title = TITLES[refusal.status] ?? 'That did not work';
  return sendHtml(
    reply.code(refusal.status),
    htmlDocument(
      `${title} — munidata console`,
      html`<link rel="stylesheet" href="/console/assets/console.css">`,
      html`<main class="narrow"><h1>${title}</h1><p class="error" role="alert">${refusal.message}</p>
<p><a href="/console">Back to the console</a></p></main>`,
    ),
  );
}
