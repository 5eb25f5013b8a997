/**
 * The repository stands on its own: no source, test or bench file refers to documents or data that are not in it
 * (the steering repository's SPEC.md, DESIGN.md or shared/data), and every docs/ page a comment points to exists.
 * A clone has nothing beside it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const FOLDERS = ['src', 'test', 'bench', 'scripts'];
const SKIP = new Set([join(ROOT, 'test', 'fixtures')]);

function filesUnder(dir: string): string[] {
  if (SKIP.has(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : /\.(ts|js|sh|yml)$/.test(name) ? [path] : [];
  });
}

const files = FOLDERS.flatMap((f) => filesUnder(join(ROOT, f))).filter((f) => f !== import.meta.filename);
const hits = (pattern: RegExp) =>
  files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
  );

describe('the repository stands on its own', () => {
  it('scans the project’s code', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files.some((f) => f.endsWith(join('src', 'main.ts')))).toBe(true);
  });

  it('refers to no SPEC.md or DESIGN.md: the docs/ pages are the contract', () => {
    expect(hits(/\b(SPEC|DESIGN)(\.md\b| ?§)/i)).toEqual([]);
  });

  it('reads no data from outside the repository (../shared)', () => {
    expect(hits(/\.\.\/shared\/data|\/shared\/(data|reference)\//)).toEqual([]);
  });

  it('points only to docs/ pages that exist', () => {
    const pages = new Set(readdirSync(join(ROOT, 'docs')));
    const named = hits(/docs\/[a-z-]+\.md/).flatMap((hit) =>
      [...hit.matchAll(/docs\/([a-z-]+\.md)/g)].map((m) => m[1]),
    );
    expect(named.length).toBeGreaterThan(10);
    expect([...new Set(named)].filter((page) => !pages.has(page))).toEqual([]);
  });
});
