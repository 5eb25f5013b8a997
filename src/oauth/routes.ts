/**
 * The authorization server and the protected resource's metadata on the service's HTTP server (docs/oauth.md):
 *
 * - `/.well-known/oauth-authorization-server` (RFC 8414), `/.well-known/openid-configuration`, and `/oauth/*`
 *   (authorize, token, register, revoke, jwks) are the library's, handed the raw request; the addresses it
 *   writes are made from `base_url`, never from the Host the request came with.
 * - `/.well-known/oauth-protected-resource`, `…/mcp` and `…/a2a` (RFC 9728): the resource is `{base_url}/mcp`.
 * - `POST /oauth/register` (RFC 7591) is limited per client address before the library sees it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Counters } from '../access/counters.js';
import { sendProblem } from '../channels/http/problem-reply.js';
import { ApiError } from '../lib/errors.js';
import { OAUTH_PATHS, oauthResource, protectedResourceMetadataUrl } from '../lib/oauth-resource.js';
import type { AuthorizationServer } from './authorization-server.js';

/** Client registrations one address may make per minute. */
export const REGISTRATIONS_PER_MINUTE = 10;

export interface OAuthRouteDeps {
  readonly server: AuthorizationServer;
  readonly baseUrl: string;
  readonly counters: Counters;
  readonly clock: () => number;
}

export function registerOAuthRoutes(app: FastifyInstance, deps: OAuthRouteDeps): void {
  const { baseUrl } = deps;
  const handler = deps.server.provider.callback();
  const base = new URL(baseUrl);

  const delegate = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = request.raw;
    // The library reads the body itself, and builds every address from these (with `proxy` on).
    raw.headers['x-forwarded-host'] = base.host;
    raw.headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    raw.headers['x-forwarded-for'] = request.ip;
    handler(raw, reply.raw);
  };

  app.register(async (scope) => {
    // Leave the body unread: the library parses form and JSON bodies with its own limits.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      scope.route({ method: ['GET', 'OPTIONS'], url: path, handler: delegate });
    }
    // A client that names no scope asks for every data scope (the holder narrows them on the consent page): the
    // library would otherwise grant nothing and answer access_denied.
    scope.route({
      method: ['GET', 'POST'],
      url: OAUTH_PATHS.authorization,
      handler: (request, reply) => {
        const url = new URL(request.raw.url ?? '/', 'http://request.invalid');
        if (request.method === 'GET' && !url.searchParams.has('scope')) {
          url.searchParams.set('scope', deps.server.scopes.join(' '));
          request.raw.url = `${url.pathname}${url.search}`;
        }
        return delegate(request, reply);
      },
    });
    scope.get(`${OAUTH_PATHS.authorization}/:uid`, delegate);
    scope.route({ method: ['POST', 'OPTIONS'], url: OAUTH_PATHS.token, handler: delegate });
    scope.route({ method: ['POST', 'OPTIONS'], url: OAUTH_PATHS.revocation, handler: delegate });
    scope.route({ method: ['GET', 'OPTIONS'], url: OAUTH_PATHS.jwks, handler: delegate });
    scope.route({ method: ['GET', 'PUT', 'DELETE'], url: `${OAUTH_PATHS.registration}/:clientId`, handler: delegate });
    scope.post(OAUTH_PATHS.registration, async (request, reply) => {
      const decision = await deps.counters.hitRate(
        `oauth-register:${request.ip}`,
        REGISTRATIONS_PER_MINUTE,
        deps.clock(),
      );
      if (!decision.allowed) {
        return sendProblem(
          request,
          reply,
          new ApiError('rate-limited', {
            detail:
              `At most ${REGISTRATIONS_PER_MINUTE} client registrations a minute from one address; ` +
              `retry in ${decision.retryAfterSeconds} s.`,
            retryAfter: decision.retryAfterSeconds,
          }),
          { baseUrl },
        );
      }
      return delegate(request, reply);
    });
  });

  const metadata = JSON.stringify(protectedResourceMetadata(baseUrl, deps.server.scopes));
  const sendMetadata = (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .type('application/json; charset=utf-8')
      .send(metadata);
  const prefix = new URL(protectedResourceMetadataUrl(baseUrl, '/mcp')).pathname.replace(/\/mcp$/, '');
  app.get(prefix, sendMetadata);
  app.get(`${prefix}/mcp`, sendMetadata);
  app.get(`${prefix}/a2a`, sendMetadata);
}

/**
 * RFC 9728 §2: one resource, the canonical MCP URI, whichever path the document is read at (the A2A endpoint
 * accepts the same token). The authorization server is the service itself.
 */
export function protectedResourceMetadata(baseUrl: string, scopes: readonly string[]) {
  return {
    resource: oauthResource(baseUrl),
    authorization_servers: [baseUrl],
    scopes_supported: [...scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'munidata',
    resource_documentation: `${baseUrl}/docs`,
  };
}
