/**
 * Post/Redirect/Get (docs/console.md, "Sent twice"): a change that worked answers 303 to the page to see next, with
 * `?done=WHAT` and the few values its notice needs (an id, a name); that page's GET turns them into its notice. A
 * reload of it is a GET, which sends nothing again, and the console's script then takes `done` and its values out
 * of the address (assets.ts), so the notice is shown once. Every change answers so, but the forms whose answer
 * shows a secret once (form-once.ts), which answer the POST themselves.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { queryOf } from './form-fields.js';

/** The parameter that names what was done; a page's notice values sit beside it. */
export const DONE = 'done';

/** Answers 303 to `path`, saying that `what` was done (with `values`, for the notice). */
export function redirectDone(
  reply: FastifyReply,
  path: string,
  what: string,
  values: Readonly<Record<string, string | number>> = {},
): FastifyReply {
  const query = new URLSearchParams({ [DONE]: what });
  for (const [name, value] of Object.entries(values)) query.set(name, String(value));
  return reply.redirect(`${path}?${query}`, 303);
}

/** What the redirect to this page said was done, and its values ('' when absent); undefined on a plain visit. */
export function doneOf(request: FastifyRequest): { what: string; value: (name: string) => string } | undefined {
  const query = queryOf(request);
  const what = query.optional(DONE);
  return what === undefined ? undefined : { what, value: (name) => query.text(name) };
}
