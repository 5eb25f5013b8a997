/**
 * Who is looking at the explorer: a signed-in console user (docs/explorer.md). The session is the console's
 * (`requireUser`: a visitor's GET is sent to sign in and back); the user's account and plan become the caller its
 * data reads run under, admitted by the core with the account's per-minute limit, shared with its API keys.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Admission } from '../../core/admission.js';
import type { Core } from '../../core/core.js';
import { SCOPES } from '../../lib/domains.js';
import { requireUser } from '../console/signed-in.js';

/** A session is no API key: `keyId` 0 names none, and every scope is held (the plan still decides the domains). */
const SESSION_KEY_ID = 0;

/** The admission of the viewer of this request, or undefined once a visitor has been answered (sent to sign in). */
export async function admitViewer(
  core: Core,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Admission | undefined> {
  const who = await requireUser(request, reply);
  if (!who) return undefined;
  return core.admitCaller({ keyId: SESSION_KEY_ID, scopes: SCOPES, account: who.account, plan: who.plan });
}
