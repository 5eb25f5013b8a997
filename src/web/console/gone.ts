/**
 * Deleting or disconnecting what is gone already (docs/console.md, "Sent twice"): a rule or an endpoint deleted, an
 * app disconnected, in a second tab or by a double click, or before a stale or bookmarked confirmation link is
 * opened. What was asked is done, so the confirmation page (GET) and its form (POST) both answer 303 to the list,
 * saying so, rather than the 404 page. An id of another account's reads the same: nothing of it is touched or named.
 */
import type { FastifyReply } from 'fastify';
import type { Html } from '../html.js';
import { redirectDone } from './done.js';
import { sendHtml } from './html.js';

/** The list of one kind of thing, and what it says of one gone already (its `?done=`, done.ts). */
export interface GoneAnswer {
  readonly list: string;
  readonly done: string;
}

/** Answers 303 to the list, saying the thing was gone already. */
export function redirectGone(reply: FastifyReply, gone: GoneAnswer): FastifyReply {
  return redirectDone(reply, gone.list, gone.done);
}

/**
 * The confirmation page of `thing`, drawn by `confirm` with a new CSRF token; or, when there is no such thing of the
 * account (gone, or another account's), the list saying it was gone already, as the form's POST would answer.
 */
export async function confirmUnlessGone<T>(
  reply: FastifyReply,
  thing: T | undefined,
  gone: GoneAnswer,
  confirm: (thing: T, csrf: string) => Html,
): Promise<FastifyReply> {
  if (thing === undefined) return redirectGone(reply, gone);
  return sendHtml(reply, confirm(thing, await reply.generateCsrf()));
}
