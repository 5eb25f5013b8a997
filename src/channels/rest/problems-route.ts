/** `GET /problems/<kind>`: each problem `type` URI answers with a description of its kind. Public. */
import type { FastifyInstance } from 'fastify';
import { ApiError, ERROR_KINDS, type ErrorKind } from '../../lib/errors.js';
import { sendProblem } from '../http/problem-reply.js';

export function registerProblemsRoute(app: FastifyInstance, baseUrl: string): void {
  app.get('/problems', (_request, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    return Object.entries(ERROR_KINDS).map(([kind, info]) => describe(baseUrl, kind as ErrorKind, info));
  });
  app.get<{ Params: { kind: string } }>('/problems/:kind', (request, reply) => {
    const kind = request.params.kind;
    if (!Object.hasOwn(ERROR_KINDS, kind)) {
      return sendProblem(request, reply, new ApiError('not-found', { detail: `No problem kind "${kind}".` }), {
        baseUrl,
      });
    }
    reply.header('cache-control', 'public, max-age=3600');
    return describe(baseUrl, kind as ErrorKind, ERROR_KINDS[kind as ErrorKind]);
  });
}

function describe(baseUrl: string, kind: ErrorKind, info: (typeof ERROR_KINDS)[ErrorKind]) {
  return {
    type: `${baseUrl}/problems/${kind}`,
    kind,
    title: info.title,
    status: info.status,
    description: info.description,
  };
}
