/**
 * The floors of the house (docs/architecture.md, Layout): each folder of src/ may import only the folders below
 * it, and no channel imports another channel. A source scan, so that a wrong import fails here, with its file and
 * line, before it becomes a habit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');

/** What each folder may import besides itself: written once, drawn in docs/architecture.md. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  lib: [],
  /** Metrics and traces: hooks every layer calls, importing none of them (docs/architecture.md). */
  observability: ['lib'],
  signals: ['lib', 'integrity'],
  store: ['lib', 'observability'],
  access: ['lib', 'store'],
  ingest: ['lib', 'store', 'observability'],
  detect: ['lib', 'signals', 'store', 'integrity'],
  integrity: ['lib', 'store'],
  alerts: ['lib', 'signals', 'store', 'detect'],
  core: ['lib', 'store', 'access', 'observability'],
  operations: ['lib', 'signals', 'store', 'access', 'core', 'integrity'],
  'channels/http': ['lib', 'core', 'observability'],
  'channels/jsonrpc': ['lib'],
  'channels/rest': ['lib', 'core', 'operations', 'channels/http'],
  'channels/a2a': ['lib', 'core', 'operations', 'channels/http', 'channels/jsonrpc'],
  'channels/mcp': ['lib', 'core', 'operations', 'channels/http', 'channels/jsonrpc', 'observability'],
  agents: ['lib', 'store', 'access', 'core', 'operations', 'channels/http', 'channels/a2a', 'channels/mcp', 'config'],
  oauth: ['lib', 'store', 'access', 'core', 'channels/http'],
  web: [
    'lib',
    'store',
    'access',
    'core',
    'integrity',
    'operations',
    'channels/http',
    'channels/rest',
    'channels/a2a',
    'admin',
    'agents',
    'oauth',
    'webhooks',
  ],
  admin: ['lib', 'signals', 'store', 'access', 'ingest', 'alerts'],
  demo: ['lib', 'store', 'access', 'admin', 'ingest', 'detect', 'alerts'],
  config: ['lib'],
  pipeline: ['lib', 'store', 'ingest', 'detect', 'alerts', 'config', 'webhooks', 'observability'],
  webhooks: ['lib', 'signals', 'store', 'core', 'operations', 'observability'],
};
/** The top floor composes everything: the HTTP service, the command line and its entry point. */
const TOP = new Set(['app', 'cli', 'main']);

/** The folder a source file belongs to: `channels/<name>` for channels, else the first folder (or the root module). */
function floorOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  if (parts.length === 1) return parts[0].replace(/\.[jt]s$/, '');
  return parts[0] === 'channels' ? `channels/${parts[1]}` : parts[0];
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  readonly file: string;
  readonly line: number;
  readonly from: string;
  readonly to: string;
}

function importsOf(file: string): Import[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const found: Import[] = [];
  lines.forEach((text, i) => {
    for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|^import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), match[1]);
      found.push({ file: relative(SRC, file), line: i + 1, from: floorOf(file), to: floorOf(target) });
    }
  });
  return found;
}

const imports = sourceFiles(SRC).flatMap(importsOf);

describe('the floors of src/', () => {
  it('knows every folder', () => {
    const unknown = [...new Set(imports.map((i) => i.from))].filter((f) => !TOP.has(f) && !(f in MAY_IMPORT));
    expect(unknown, 'a new folder: say in MAY_IMPORT (and docs/architecture.md) what it may import').toEqual([]);
  });

  it('imports only downwards', () => {
    const upward = imports
      .filter((i) => i.from !== i.to && !TOP.has(i.from) && !(MAY_IMPORT[i.from] ?? []).includes(i.to))
      .map((i) => `${i.file}:${i.line} (${i.from} → ${i.to})`);
    expect(upward).toEqual([]);
  });

  it('never lets one channel import another', () => {
    const channels = ['channels/rest', 'channels/a2a', 'channels/mcp'];
    const across = imports
      .filter((i) => channels.includes(i.from) && channels.includes(i.to) && i.from !== i.to)
      .map((i) => `${i.file}:${i.line}`);
    expect(across).toEqual([]);
  });

  it('finds the imports it checks (the scan reads the tree)', () => {
    expect(imports.filter((i) => i.from === 'core' && i.to === 'store').length).toBeGreaterThan(0);
    expect(imports.filter((i) => i.from === 'channels/mcp' && i.to === 'channels/jsonrpc').length).toBeGreaterThan(0);
  });
});
