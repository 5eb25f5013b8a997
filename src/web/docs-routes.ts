/** Public documentation routes: the OpenAPI document and the reference page, both derived from the registry. */
import type { FastifyInstance } from 'fastify';
import { buildOpenApi } from '../channels/rest/openapi.js';
import type { Registry } from '../operations/registry.js';
import { renderDocsPage } from './docs-page.js';

export function registerDocs(app: FastifyInstance, registry: Registry, baseUrl: string): void {
  const openapi = JSON.stringify(buildOpenApi(registry, baseUrl));
  const page = renderDocsPage(registry, baseUrl);
  app.get('/v1/openapi.json', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('application/json; charset=utf-8').send(openapi),
  );
  app.get('/docs', (_request, reply) => reply.header('cache-control', 'public, max-age=300').type('text/html; charset=utf-8').send(page));
}
