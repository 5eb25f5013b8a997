/**
 * Who is looking at the explorer. The explorer is for signed-in console users (docs/explorer.md): a page asks
 * `admitViewer` for the admission its data reads run under, and a visitor who has none is sent to sign in.
 *
 * Until the console's session lands this gate admits the same credential the API takes (an API key in
 * `Authorization`), through the core's own admission: one line (`admitBySession` below) swaps it for the session.
 */
import type { FastifyRequest } from 'fastify';
import { requestFacts } from '../../channels/http/request-facts.js';
import type { Admission, Core } from '../../core/execute.js';

/** Where a visitor without a session is sent, with `next` naming the page to come back to. */
export const SIGN_IN_PATH = '/console/sign-in';

/** The admission of the viewer of this request; throws `invalid-auth` (or a limit's refusal) like the API. */
export function admitViewer(core: Core, request: FastifyRequest): Promise<Admission> {
  return core.admit(requestFacts(request));
}

export function signInUrl(request: FastifyRequest): string {
  return `${SIGN_IN_PATH}?next=${encodeURIComponent(request.url)}`;
}
