/**
 * createApp(deps): the whole HTTP service, used by `main.ts` and by every test (in-process with `inject`,
 * or listening on port 0). Channels are registered over one core; nothing here reads the environment.
 */
import { randomBytes } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Authenticator } from './access/authenticate.js';
import type { Counters } from './access/counters.js';
import { DailyUsage } from './access/daily-usage.js';
import { openGrantRevocations } from './access/grant-revocations.js';
import { openCounters } from './access/open-counters.js';
import { type AgentHost, type AgentHostOptions, registerAgentHost } from './agents/host.js';
import { registerA2aChannel } from './channels/a2a/a2a-channel.js';
import { a2aRefusal } from './channels/a2a/a2a-protocol.js';
import { cardSigner } from './channels/a2a/card-signature.js';
import {
  problemRefusal,
  type Refusal,
  type RefusalForm,
  requestLinePath,
  writeSocketRefusal,
} from './channels/http/framework-refusal.js';
import { routeEveryMethod } from './channels/http/methods.js';
import { createGuardedServer } from './channels/http/pre-routing.js';
import { sendProblem } from './channels/http/problem-reply.js';
import { parseQueryString } from './channels/http/query-string.js';
import {
  type LogDestination,
  loggerOptions,
  OneLinePerRequest,
  observeAnsweredRequests,
} from './channels/http/request-log.js';
import { RoutedMethods } from './channels/http/routed-methods.js';
import { registerMcpChannel } from './channels/mcp/mcp-channel.js';
import { mcpRefusal } from './channels/mcp/mcp-protocol.js';
import { MCP_PATH } from './channels/mcp/server-facts.js';
import { registerProblemsRoute } from './channels/rest/problems-route.js';
import { registerRestChannel } from './channels/rest/rest-channel.js';
import { type Config, DEFAULT_TIMEOUTS, type Timeouts } from './config.js';
import { Core } from './core/core.js';
import { CursorCodec } from './core/cursor.js';
import { ReferenceCache } from './core/reference.js';
import { ApiError, kindOfStatus, toApiError } from './lib/errors.js';
import { OAUTH_PATHS } from './lib/oauth-resource.js';
import type { ProxyTrust } from './lib/proxy-trust.js';
import { type AuthorizationServer, createAuthorizationServer } from './oauth/authorization-server.js';
import { registerOAuthRoutes } from './oauth/routes.js';
import { tracedHandler } from './observability/request-observer.js';
import { createRegistry } from './operations/index.js';
import type { Registry } from './operations/registry.js';
import type { OAuthStore } from './store/oauth/oauth-sql-store.js';
import type { Store } from './store/store.js';
import { registerAlertFeedRoute } from './web/alert-feed-route.js';
import { registerAppsPage } from './web/console/apps-page.js';
import { registerConnectPage } from './web/console/connect-page.js';
import { registerConsole } from './web/console/console-routes.js';
import { registerSignedInScope } from './web/console/signed-in.js';
import { registerDocs } from './web/docs-routes.js';
import { registerExplorer } from './web/explore/explore-routes.js';
import { registerHealthRoutes } from './web/health-routes.js';
import { registerHomeRoute } from './web/home-route.js';
import { registerIconRoute } from './web/icon-route.js';
import { pagePart, sendPageNotFound } from './web/page-not-found.js';

export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  /** Defaults to the counters the config names (`REDIS_URL`: Redis, else in-process) over the store's usage table. */
  readonly counters?: Counters;
  /** Milliseconds since the epoch; tests pass a fake clock. */
  readonly clock?: () => number;
  readonly registry?: Registry;
  /** Log to stdout (the server) or not (tests). */
  readonly logger?: boolean;
  /** Where the log lines go instead of stdout (a test reading them); implies `logger`. */
  readonly logDestination?: LogDestination;
  /** The company-agent host's limits, task runner periods and test hooks. */
  readonly agents?: AgentHostOptions;
  /** Where the authorization server keeps clients, grants, codes, tokens and keys (default: the store's). */
  readonly oauthStore?: OAuthStore;
  /** Access-token lifetime in seconds (tests shorten it; docs/oauth.md, Lifetimes). */
  readonly oauthAccessTokenTtl?: number;
}

export interface App {
  readonly http: FastifyInstance;
  readonly core: Core;
  readonly registry: Registry;
  readonly counters: Counters;
  /** The company-agent host (its task runner). */
  readonly agents: AgentHost;
  /** The OAuth authorization server (docs/oauth.md). */
  readonly oauth: AuthorizationServer;
  close(): Promise<void>;
}

export async function createApp(deps: AppDeps): Promise<App> {
  const { config, store } = deps;
  const clock = deps.clock ?? Date.now;
  const registry = deps.registry ?? createRegistry();
  const nextRequestId = requestIds();
  const refusal = (error: ApiError, requestId: string, path: string) =>
    refusalFormOf(path)(error, { baseUrl: config.baseUrl, requestId, instance: path });
  const http = Fastify({
    // Node's own answers before a request reaches Fastify (no Host, an odd Expect, CONNECT), in the channel's form.
    serverFactory: (handler, options) =>
      createGuardedServer(tracedHandler(handler), options, (error, path) => {
        const requestId = nextRequestId();
        return { requestId, refusal: refusal(error, requestId, path) };
      }),
    logger: deps.logger || deps.logDestination ? loggerOptions(config.logLevel, deps.logDestination) : false,
    logController: new OneLinePerRequest(),
    genReqId: () => nextRequestId(),
    // Behind a load balancer the client's address is in X-Forwarded-For, trusted only from the peers configured.
    trustProxy: fastifyTrust(config.trustProxy ?? false),
    ...serverTimeouts(config.timeouts ?? DEFAULT_TIMEOUTS),
    routerOptions: {
      // Query values are decoded strictly (query-string.ts) and read as their types by the core (docs/api.md).
      querystringParser: parseQueryString,
      // A path parameter of any length reaches the core, which answers as on A2A and MCP (422 naming it, or 404);
      // the request line is bounded by Node's header limit (431).
      maxParamLength: MAX_PATH_PARAM_LENGTH,
    },
    // Refusals made before any route runs, in the form of the channel the request was for (framework-refusal.ts).
    frameworkErrors: (error, request, reply) => sendRefusal(request, reply, frameworkRefusal(error), refusal),
    clientErrorHandler: (error: Error & { code?: string; rawPacket?: unknown }, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const apiError = new ApiError(kindOfStatus(status), { detail: CLIENT_ERROR_DETAIL[status] });
      const requestId = nextRequestId();
      writeSocketRefusal(socket, apiError, requestId, refusal(apiError, requestId, requestLinePath(error.rawPacket)));
    },
    // While draining, a request pipelined on a busy connection is answered (with `Connection: close`), not
    // refused with Fastify's own 503, which is not a problem document: shutting down loses nobody's request.
    return503OnClosing: false,
  });
  // Metrics and the request's span, when on: a hook every route below inherits (docs/deploy.md, Operating).
  observeAnsweredRequests(http);
  // Every method Node reads reaches a route, so an endpoint answers the ones it does not serve with 405.
  routeEveryMethod(http);
  // …and so does every other path routed for some method: 405 with its Allow rather than 404 (routed-methods.ts).
  const routed = new RoutedMethods();
  routed.watch(http);
  const counters = deps.counters ?? (await openCounters(config, store, http.log));
  const oauth = await createAuthorizationServer({
    baseUrl: config.baseUrl,
    store: deps.oauthStore ?? store.oauth,
    cookieKeys: [await store.secret('oauth-cookies')],
    accessTokenTtl: deps.oauthAccessTokenTtl,
    revocations: await openGrantRevocations(config),
  });
  const dailyUsage = new DailyUsage(store);
  const core = new Core({
    store,
    counters,
    authenticator: new Authenticator(store, { verifier: oauth.verifier, revocations: oauth.revocations }),
    reference: new ReferenceCache(store),
    cursors: new CursorCodec(await store.secret('cursor')),
    clock,
    baseUrl: config.baseUrl,
    operations: registry.all,
    dailyUsage,
  });

  http.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = routed.allowed(path);
    if (allowed.length === 0) {
      const near = routed.closest(request.method, path);
      const part = pagePart(request, path);
      if (part) return sendPageNotFound(reply, part, path, near);
      const guess = near === undefined ? '' : ` Did you mean ${request.method} ${near}?`;
      const error = new ApiError('not-found', { detail: `No route ${request.method} ${path}.${guess}` });
      return sendProblem(request, reply, error, { baseUrl: config.baseUrl });
    }
    reply.header('allow', allowed.join(', '));
    const error = new ApiError('method-not-allowed', {
      detail: `${request.method} is not served at ${path}; use ${allowed.join(', ')}.`,
    });
    return sendProblem(request, reply, error, { baseUrl: config.baseUrl });
  });
  http.setErrorHandler((error, request, reply) => {
    // Errors raised by Fastify itself before a handler runs (a malformed request): a client error stays one, of
    // the kind its status names, in the channel's form.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === undefined || status < 400 || status >= 500) {
      return sendProblem(request, reply, toApiError(error), { baseUrl: config.baseUrl });
    }
    return sendRefusal(
      request,
      reply,
      new ApiError(kindOfStatus(status), { detail: (error as Error).message }),
      refusal,
    );
  });
  // Routes outside the JSON-RPC endpoints take no body: one sent along (a GET's, a POST's refused with 405) is read
  // up to a limit and ignored, so its content type or syntax never decides the answer.
  http.removeAllContentTypeParsers();
  http.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: IGNORED_BODY_LIMIT }, (_request, _body, done) =>
    done(null, undefined),
  );

  // The REST routes write their answers themselves, request id and compression included (rest-channel.ts):
  // they are registered in a scope of their own, outside the hook and the compression plugin the others use.
  await http.register(async (rest) => registerRestChannel(rest, core, registry));
  let registeredHost: AgentHost | undefined;
  await http.register(async (scope) => {
    scope.addHook('onRequest', (request, reply, done) => {
      reply.header('request-id', request.id);
      done();
    });
    await scope.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
    // Every agent card, the data agent's and each company agent's, is signed with the key the JWKS publishes.
    const signCard = cardSigner(oauth.signingKey, `${config.baseUrl}${OAUTH_PATHS.jwks}`);
    registerA2aChannel(scope, core, registry, signCard);
    registerMcpChannel(scope, core, registry);
    registeredHost = registerAgentHost(scope, {
      config,
      core,
      store,
      counters,
      clock,
      signCard,
      options: deps.agents,
    });
    registerOAuthRoutes(scope, { server: oauth, baseUrl: config.baseUrl, counters, clock });
    registerProblemsRoute(scope, config.baseUrl);
    registerDocs(scope, registry, config.baseUrl);
    registerHomeRoute(scope, config.baseUrl, MCP_PATH);
    registerIconRoute(scope);
    registerHealthRoutes(scope, {
      store,
      counters,
      pipelineIntervalS: config.pipelineIntervalS,
      replica: config.databaseReadUrl !== undefined,
      redis: config.redisUrl !== undefined,
      clock,
    });
    registerAlertFeedRoute(scope, { store, baseUrl: config.baseUrl, clock });
  });
  // Pages for people (docs/console.md): cookies, forms, CSRF and security headers in a scope of their own, so
  // the data channels never pay for them. A page that needs a session registers here and calls requireUser.
  await http.register(async (people) => {
    await registerSignedInScope(people, {
      store,
      counters,
      dailyUsage,
      baseUrl: config.baseUrl,
      agentsUrl: config.agentsUrl,
      clock,
      pipelineIntervalS: config.pipelineIntervalS,
      consoleOperators: config.consoleOperators,
      webhookAllowLoopback: config.webhookAllowLoopback ?? false,
    });
    registerConsole(people, core);
    // The explorer's pages, files and data (docs/explorer.md), compressed like the other public routes.
    await people.register(async (explore) => {
      await explore.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
      registerExplorer(explore, core, registry);
    });
    registerConnectPage(people, oauth);
    registerAppsPage(people, oauth);
  });
  if (!registeredHost) throw new Error('the agent host was not registered');
  const agentHost = registeredHost;

  return {
    http,
    core,
    registry,
    counters,
    agents: agentHost,
    oauth,
    async close() {
      // Fastify closes the connections idle when it starts; one kept alive after its request in flight ends would
      // hold the close up until the client drops it, so idle ones are swept until the server is closed.
      const sweep = setInterval(() => http.server.closeIdleConnections(), 100);
      try {
        await http.close();
      } finally {
        clearInterval(sweep);
      }
      await agentHost.close();
      await dailyUsage.close();
      await oauth.revocations.close();
      await counters.close();
    },
  };
}

/** Longer than any parameter a schema accepts; a longer request line is refused by Node (431). */
const MAX_PATH_PARAM_LENGTH = 16_384;
/** What a route without a body reads of one before refusing it with 413. */
const IGNORED_BODY_LIMIT = 64 * 1024;

const CLIENT_ERROR_DETAIL: Record<number, string> = {
  400: 'The HTTP request could not be parsed.',
  408: 'The request did not arrive in time.',
  431: 'The request line and headers exceed 16 KiB.',
};

/** The error form of the channel a path belongs to: JSON-RPC on the A2A and MCP endpoints, a problem elsewhere. */
function refusalFormOf(path: string): RefusalForm {
  if (/\/a2a\/?$/.test(path)) return a2aRefusal;
  if (/\/mcp\/?$/.test(path)) return mcpRefusal;
  return problemRefusal;
}

/** A Fastify error raised before routing as one of the table's kinds. */
function frameworkRefusal(error: FastifyError): ApiError {
  if (error.code === 'FST_ERR_BAD_URL') {
    const message = 'is not valid percent-encoded UTF-8';
    return new ApiError('validation-error', { detail: `path: ${message}`, errors: [{ field: 'path', message }] });
  }
  return new ApiError(kindOfStatus(error.statusCode ?? 400), { detail: error.message });
}

function sendRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  refusal: (error: ApiError, requestId: string, path: string) => Refusal,
): FastifyReply {
  const { contentType, body } = refusal(error, request.id, request.url.split('?')[0]);
  return reply
    .code(error.status)
    .header('request-id', request.id)
    .header('cache-control', 'no-store')
    .type(contentType)
    .send(body);
}

/**
 * Fastify's form of TRUST_PROXY. A hop count is a function trusting the first `hops` peers back from the socket
 * (Fastify 5 reads a bare number as "trust none"): the client is the address that many entries from the end of
 * X-Forwarded-For. Only right when the service cannot be reached but through those proxies (docs/deploy.md).
 */
function fastifyTrust(trust: ProxyTrust): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/**
 * Node's timeouts, so that a slow client cannot hold a connection (docs/deploy.md, Timeouts). Node checks the
 * header and request timeouts on a sweep (every 30 s by default): a sweep at a tenth of the header timeout (at
 * most every second) cuts a dribbling client close to its deadline.
 */
function serverTimeouts(timeouts: Timeouts) {
  return {
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(timeouts.headersMs / 10))),
    },
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.idleMs,
  };
}

/**
 * Request ids: `req_` + 32 hex digits — a random prefix per process (so instances never collide) and a counter
 * (so the hot path does not draw random bytes on every request).
 */
function requestIds(): () => string {
  const prefix = randomBytes(10).toString('hex');
  let counter = 0;
  return () => `req_${prefix}${(counter++).toString(16).padStart(12, '0')}`;
}
