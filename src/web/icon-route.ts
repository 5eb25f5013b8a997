/**
 * `GET /icon.svg`: the service's icon (`assets/icon.svg`, read once at start), which MCP clients show beside the
 * server (`serverInfo.icons`) and A2A clients beside each agent (`iconUrl`). Public, with a strong ETag.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { SERVICE_ICON } from '../lib/service.js';

/** Two folders up from this file (src/web or dist/web): the repository's root. */
const ICON_FILE = new URL('../../assets/icon.svg', import.meta.url);

export function registerIconRoute(app: FastifyInstance): void {
  const body = readFileSync(ICON_FILE);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  app.get(SERVICE_ICON.path, (request, reply) => {
    // An SVG opened on its own is a document: it may run nothing and load nothing.
    reply
      .header('etag', etag)
      .header('cache-control', 'public, max-age=86400')
      .header('content-security-policy', "default-src 'none'")
      .header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(SERVICE_ICON.mimeType).send(body);
  });
}
