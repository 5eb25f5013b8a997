/**
 * Where the files that draw the data live: the drawing modules both hosts run (`assets/draw/`: the explorer's pages
 * and the MCP Apps views), the libraries they use from their npm packages (d3's and topojson-client's own minified
 * builds) and the municipality boundaries (`data/municipalities.topo.json`, data/SOURCES.md).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root: two folders up from this file, in src/lib as in dist/lib. */
export const REPOSITORY_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The drawing modules (plain ES modules that expect `d3` and `topojson` as globals). */
export const DRAWING_FOLDER = join(REPOSITORY_ROOT, 'assets', 'draw');

export const BOUNDARIES_FILE = join(REPOSITORY_ROOT, 'data', 'municipalities.topo.json');

/** The libraries' minified builds, by the file name they are served under. */
export function drawingLibraries(): ReadonlyMap<string, string> {
  const require = createRequire(import.meta.url);
  return new Map([
    ['d3.min.js', join(dirname(require.resolve('d3')), 'd3.min.js')],
    ['topojson-client.min.js', join(dirname(require.resolve('topojson-client')), 'topojson-client.min.js')],
  ]);
}
