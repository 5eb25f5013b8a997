/**
 * The explorer's static files, read once at start: its own scripts and style (the repository's `assets/explore/`),
 * the map and chart libraries from their npm packages (served by us, never from a CDN) and the municipality
 * boundaries (`src/lib/drawing-files.ts`); and, apart, the drawing modules it shares with the MCP Apps views
 * (`assets/draw/`, served under `/explore/draw/`). Each is served with a strong ETag of its bytes; compression is
 * the scope's (`@fastify/compress`).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { BOUNDARIES_FILE, DRAWING_FOLDER, drawingLibraries, REPOSITORY_ROOT } from '../../lib/drawing-files.js';

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

/** The explorer's own files, the libraries and the boundaries: `/explore/assets/<name>`. */
export function loadAssets(): ReadonlyMap<string, Asset> {
  const files = new Map(drawingLibraries());
  files.set('municipalities.topo.json', BOUNDARIES_FILE);
  return read(folderFiles(join(REPOSITORY_ROOT, 'assets', 'explore'), files));
}

/** The drawing modules: `/explore/draw/<name>`, where the pages' `../draw/…` imports resolve. */
export function loadDrawingAssets(): ReadonlyMap<string, Asset> {
  return read(folderFiles(DRAWING_FOLDER, new Map()));
}

function folderFiles(folder: string, files: Map<string, string>): Map<string, string> {
  for (const name of readdirSync(folder)) if (TYPES[extname(name)]) files.set(name, join(folder, name));
  return files;
}

function read(files: ReadonlyMap<string, string>): ReadonlyMap<string, Asset> {
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
