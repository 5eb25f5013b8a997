/**
 * One log line per HTTP request, at `info` when it is answered (docs/deploy.md, Logs): the request id, the
 * channel, the operation and the account when the request got that far, the method, the path (its secrets
 * redacted), the status and the duration. Fastify's own pair of lines ("incoming request", "request completed")
 * is replaced by this one; every line the service writes, this or another, passes through `redactSecrets`.
 */
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { redactSecrets } from '../../lib/redact.js';
import { observing, recordRequest } from '../../observability/request-observer.js';
import { traceOf } from './request-trace.js';

/** Where the lines go: stdout for the server, a test's buffer. */
export interface LogDestination {
  write(line: string): void;
}

/** Fastify's logger options: the level, the destination, and every line redacted on its way out. */
export function loggerOptions(level: string, destination?: LogDestination): FastifyServerOptions['logger'] {
  return {
    level,
    ...(destination && { stream: destination }),
    // Belt and braces: the headers are never logged by this service, and if a line ever holds them, these go.
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'req.headers["proxy-authorization"]',
        'headers.authorization',
        'headers["x-api-key"]',
      ],
      censor: '[REDACTED]',
    },
    hooks: { streamWrite: redactSecrets },
  } as FastifyServerOptions['logger'];
}

/** The request id is logged as `request_id`, the name it has in problem documents and the `Request-Id` header. */
export class OneLinePerRequest extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'request_id' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const trace = traceOf(request);
    const line = {
      channel: channelOf(request),
      ...(trace.operation !== undefined && { operation: trace.operation }),
      ...(trace.accountId !== undefined && { account_id: trace.accountId }),
      method: request.method,
      path: request.url.split('?')[0],
      status: reply.raw.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 100) / 100,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }
}

/**
 * When metrics or tracing is on (docs/deploy.md, Operating), each answered request is counted and its span given
 * what the log line says; off, no hook is added and requests pay nothing.
 */
export function observeAnsweredRequests(http: FastifyInstance): void {
  if (!observing()) return;
  http.addHook('onResponse', (request, reply, done) => {
    const trace = traceOf(request);
    recordRequest(request.raw, {
      channel: channelOf(request),
      operation: trace.operation,
      accountId: trace.accountId,
      route: request.routeOptions.url,
      status: reply.raw.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
    done();
  });
}

/** The channel a request came by, from its route (or its path, when no route matched). */
function channelOf(request: FastifyRequest): string {
  const path = request.routeOptions.url ?? request.url;
  if (path.startsWith('/v1/')) return 'rest';
  if (path.startsWith('/a2a') || path.startsWith('/.well-known/agent')) return 'a2a';
  if (path.startsWith('/mcp')) return 'mcp';
  if (path.includes('/:slug/')) return path.endsWith('/mcp') ? 'agent-mcp' : 'agent-a2a';
  return 'web';
}
