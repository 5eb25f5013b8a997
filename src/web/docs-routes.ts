/** Public documentation routes: the OpenAPI document and the reference page, both derived from the registry. */
import type { FastifyInstance } from 'fastify';
import { buildOpenApi } from '../channels/rest/openapi.js';
import {
  SYNTHETIC_EXTENSION,
  SYNTHETIC_EXTENSION_DIR,
  SYNTHETIC_RELEASE_SCHEMA_PATCH,
} from '../operations/procurement/ocds/synthetic-extension.js';
import type { Registry } from '../operations/registry.js';
import { renderDocsPage } from './docs-page.js';

export function registerDocs(app: FastifyInstance, registry: Registry, baseUrl: string): void {
  const openapi = JSON.stringify(buildOpenApi(registry, baseUrl));
  const page = renderDocsPage(registry, baseUrl);
  app.get('/v1/openapi.json', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('application/json; charset=utf-8').send(openapi),
  );
  app.get('/docs', (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').type('text/html; charset=utf-8').send(page),
  );
  // The synthetic OCDS extension that every OCDS package names in `extensions` (docs/ocds.md).
  for (const [file, body] of [
    ['extension.json', SYNTHETIC_EXTENSION],
    ['release-schema.json', SYNTHETIC_RELEASE_SCHEMA_PATCH],
  ] as const) {
    const text = JSON.stringify(body, null, 2);
    app.get(`${SYNTHETIC_EXTENSION_DIR}/${file}`, (_request, reply) =>
      reply.header('cache-control', 'public, max-age=3600').type('application/json; charset=utf-8').send(text),
    );
  }
}
