/**
 * The HTML document of an MCP Apps view, self-contained as the extension's default CSP wants it (no `connect-src`,
 * scripts and styles inline): d3 and topojson-client from their npm packages, the drawing modules the explorer
 * uses (assets/draw/, linked into one script with the view's own, assets/mcp-app/), the explorer's style and,
 * for a map, the 308 boundaries as inline JSON. Built once per view, on its first read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BOUNDARIES_FILE, drawingLibraries, REPOSITORY_ROOT } from '../../../lib/drawing-files.js';
import type { AppView } from './app-views.js';
import { linkModules } from './link-modules.js';

const APP_FOLDER = join(REPOSITORY_ROOT, 'assets', 'mcp-app');

const built = new Map<string, string>();

export function appHtml(view: AppView): string {
  let html = built.get(view.view);
  if (html === undefined) {
    html = buildAppHtml(view);
    built.set(view.view, html);
  }
  return html;
}

function buildAppHtml(view: AppView): string {
  const style = [join(REPOSITORY_ROOT, 'assets', 'explore', 'explore.css'), join(APP_FOLDER, 'app.css')]
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const libraries = [...drawingLibraries().values()].map((file) => script(readFileSync(file, 'utf8')));
  const boundaries = view.boundaries
    ? `<script type="application/json" id="boundaries">${inert(readFileSync(BOUNDARIES_FILE, 'utf8'))}</script>\n`
    : '';
  return `<!doctype html>
<html lang="en" data-view="${view.view}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${view.title} — munidata</title>
<style>${inert(style)}</style>
</head>
<body>
<main id="view" aria-live="polite"><p>Waiting for the tool result…</p></main>
${boundaries}${libraries.join('\n')}
${script(linkModules(join(APP_FOLDER, 'app.js')))}
</body>
</html>
`;
}

function script(code: string): string {
  return `<script>${inert(code)}</script>`;
}

/**
 * Text that cannot end the element it is inlined in: `</` is written `<\/`, which JavaScript, JSON strings and CSS
 * strings read the same (none of the inlined files has `</` outside a string or a regular expression).
 */
function inert(text: string): string {
  return text.replaceAll('</', '<\\/');
}
