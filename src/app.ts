/**
 * createApp(deps): the whole HTTP service, used by `main.ts` and by every test (in-process with `inject`,
 * or listening on port 0). Channels are registered over one core; nothing here reads the environment.
 */
import { randomBytes } from 'node:crypto';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { Authenticator } from './access/authenticate.js';
import type { Counters } from './access/counters.js';
import { DailyUsage } from './access/daily-usage.js';
import { openCounters } from './access/open-counters.js';
import { type AgentHost, type AgentHostOptions, registerAgentHost } from './agents/host.js';
import { registerA2aChannel } from './channels/a2a/a2a-channel.js';
import { sendProblem } from './channels/http/problem-reply.js';
import { type LogDestination, loggerOptions, OneLinePerRequest } from './channels/http/request-log.js';
import { registerMcpChannel } from './channels/mcp/mcp-channel.js';
import { MCP_PATH } from './channels/mcp/protocol.js';
import { registerProblemsRoute } from './channels/rest/problems-route.js';
import { parseQueryString } from './channels/rest/query-string.js';
import { registerRestChannel } from './channels/rest/rest-channel.js';
import type { Config } from './config.js';
import { CursorCodec } from './core/cursor.js';
import { Core } from './core/execute.js';
import { ReferenceCache } from './core/reference.js';
import { ApiError, toApiError } from './lib/errors.js';
import { createRegistry } from './operations/index.js';
import type { Registry } from './operations/registry.js';
import type { Store } from './store/store.js';
import { registerConsole } from './web/console/console-routes.js';
import { registerSignedInScope } from './web/console/signed-in.js';
import { registerDocs } from './web/docs-routes.js';
import { registerHealthRoutes } from './web/health-routes.js';
import { registerHomeRoute } from './web/home-route.js';

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
}

export interface App {
  readonly http: FastifyInstance;
  readonly core: Core;
  readonly registry: Registry;
  readonly counters: Counters;
  /** The company-agent host (its task runner). */
  readonly agents: AgentHost;
  close(): Promise<void>;
}

export async function createApp(deps: AppDeps): Promise<App> {
  const { config, store } = deps;
  const clock = deps.clock ?? Date.now;
  const registry = deps.registry ?? createRegistry();
  const http = Fastify({
    logger: deps.logger || deps.logDestination ? loggerOptions(config.logLevel, deps.logDestination) : false,
    logController: new OneLinePerRequest(),
    genReqId: requestIds(),
    trustProxy: false,
    // Query values are decoded strictly (query-string.ts) and read as their types by the core (docs/api.md).
    routerOptions: { querystringParser: parseQueryString },
    // While draining, a request pipelined on a busy connection is answered (with `Connection: close`), not
    // refused with Fastify's own 503, which is not a problem document: shutting down loses nobody's request.
    return503OnClosing: false,
  });
  const counters = deps.counters ?? (await openCounters(config, store, http.log));
  const dailyUsage = new DailyUsage(store);
  const core = new Core({
    store,
    counters,
    authenticator: new Authenticator(store),
    reference: new ReferenceCache(store),
    cursors: new CursorCodec(await store.secret('cursor')),
    clock,
    baseUrl: config.baseUrl,
    operations: registry.all,
    dailyUsage,
  });

  http.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, new ApiError('not-found', { detail: `No route ${request.method} ${request.url.split('?')[0]}.` }), {
      baseUrl: config.baseUrl,
    }),
  );
  http.setErrorHandler((error, request, reply) => {
    // Errors raised by Fastify itself before a handler runs (a malformed request): a client error stays one.
    const status = (error as { statusCode?: number }).statusCode;
    const apiError =
      status !== undefined && status >= 400 && status < 500
        ? new ApiError('validation-error', { detail: (error as Error).message })
        : toApiError(error);
    return sendProblem(request, reply, apiError, { baseUrl: config.baseUrl });
  });

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
    registerA2aChannel(scope, core, registry);
    registerMcpChannel(scope, core, registry);
    registeredHost = registerAgentHost(scope, { config, core, store, counters, clock, options: deps.agents });
    registerProblemsRoute(scope, config.baseUrl);
    registerDocs(scope, registry, config.baseUrl);
    registerHomeRoute(scope, config.baseUrl, MCP_PATH);
    registerHealthRoutes(scope, { store, counters });
  });
  // Pages for people (docs/console.md): cookies, forms, CSRF and security headers in a scope of their own, so
  // the data channels never pay for them. A page that needs a session registers here and calls requireUser.
  await http.register(async (people) => {
    await registerSignedInScope(people, { store, counters, dailyUsage, baseUrl: config.baseUrl, agentsUrl: config.agentsUrl, clock });
    registerConsole(people);
  });
  if (!registeredHost) throw new Error('the agent host was not registered');
  const agentHost = registeredHost;

  return {
    http,
    core,
    registry,
    counters,
    agents: agentHost,
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
      await counters.close();
    },
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
