/**
 * Every HTTP method a request can arrive with, so that a route answers each method it does not serve with 405 and
 * `Allow` (docs/api.md, docs/a2a.md, docs/mcp.md) instead of the 404 of a path Fastify knows no method for. Node's
 * parser refuses any other method token (400, framework-refusal.ts) and hands CONNECT to the server's `connect`
 * event (pre-routing.ts), so the set is Node's list without CONNECT.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../lib/errors.js';
import { ARRIVING_METHODS, methodsOtherThan } from '../../lib/http-methods.js';
import { sendProblem } from './problem-reply.js';

/** Teaches Fastify (which routes only a few methods by default: GET, POST, TRACE…) every method Node reads. */
export function routeEveryMethod(app: FastifyInstance): void {
  for (const method of ARRIVING_METHODS) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true });
  }
}

const NOT_GET = methodsOtherThan(['GET']);

/** Every other method on a GET route (REST, the agent cards): 405 with `Allow: GET, HEAD`, a problem document. */
export function refuseMethodsOtherThanGet(app: FastifyInstance, url: string, baseUrl: string): void {
  app.route({
    method: NOT_GET,
    url,
    handler: (request, reply) => {
      const error = new ApiError('method-not-allowed', { detail: `${request.method} is not allowed; use GET.` });
      return sendProblem(request, reply, error, { baseUrl });
    },
  });
}
