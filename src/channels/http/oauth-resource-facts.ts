/**
 * The agent channels of the data service (`/mcp`, `/a2a`) are one OAuth protected resource (docs/oauth.md): what
 * their admission reads of a request, and the `WWW-Authenticate` challenge of their 401 and step-up 403 answers.
 */
import type { FastifyRequest } from 'fastify';
import type { RequestFacts } from '../../core/admission.js';
import { ApiError } from '../../lib/errors.js';
import { bearerChallenge, oauthResource, protectedResourceMetadataUrl } from '../../lib/oauth-resource.js';
import { requestFacts } from './request-facts.js';

/**
 * The request's credential facts, accepting an access token bound to the MCP resource. A token in the query
 * string (RFC 6750 §2.3) is refused before anything else: URLs end up in logs and in `Referer`.
 */
export function protectedResourceFacts(request: FastifyRequest, baseUrl: string): RequestFacts {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query === 'object' && 'access_token' in query) {
    throw new ApiError('invalid-auth', {
      detail:
        'Access tokens are accepted only in the Authorization header (`Authorization: Bearer …`), never in the query ' +
        'string.',
      challenge: 'invalid_token',
    });
  }
  return { ...requestFacts(request), tokenAudience: oauthResource(baseUrl) };
}

/** `Bearer resource_metadata="…"`, with `error` when a credential was sent and `scope` for step-up. */
export function protectedResourceChallenge(
  error: ApiError,
  request: FastifyRequest,
  baseUrl: string,
  path: '/mcp' | '/a2a',
): string {
  const metadataUrl = protectedResourceMetadataUrl(baseUrl, path);
  if (error.challenge === 'insufficient_scope') {
    return bearerChallenge(metadataUrl, {
      error: 'insufficient_scope',
      scope: error.scopes,
      description: error.detail,
    });
  }
  const facts = requestFacts(request);
  const sent = Boolean(facts.authorization?.trim() || facts.apiKey?.trim()) || error.challenge === 'invalid_token';
  return bearerChallenge(metadataUrl, sent ? { error: 'invalid_token' } : {});
}
