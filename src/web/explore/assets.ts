/**
 * The explorer's static files, read once at start: its own scripts and style (the repository's `assets/explore/`),
 * the map and chart libraries from their npm packages (d3's and topojson-client's own minified builds, served by
 * us, never from a CDN) and the municipality boundaries (`data/municipalities.topo.json`, data/SOURCES.md).
 * Each is served with a strong ETag of its bytes; compression is the scope's (`@fastify/compress`).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Asset {
  readonly body: Buffer;
  readonly type: string;
  readonly etag: string;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

/** The repository's root: three folders up from this file, in src/web/explore as in dist/web/explore. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function loadAssets(): ReadonlyMap<string, Asset> {
  const require = createRequire(import.meta.url);
  const files = new Map<string, string>([
    ['d3.min.js', join(dirname(require.resolve('d3')), 'd3.min.js')],
    ['topojson-client.min.js', join(dirname(require.resolve('topojson-client')), 'topojson-client.min.js')],
    ['municipalities.topo.json', join(ROOT, 'data', 'municipalities.topo.json')],
  ]);
  const own = join(ROOT, 'assets', 'explore');
  for (const name of readdirSync(own)) if (TYPES[extname(name)]) files.set(name, join(own, name));

  const assets = new Map<string, Asset>();
  for (const [name, path] of files) {
    const body = readFileSync(path);
    assets.set(name, {
      body,
      type: TYPES[extname(name)],
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    });
  }
  return assets;
}
