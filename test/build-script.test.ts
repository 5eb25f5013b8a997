/**
 * scripts/build.js, which `npm start`, `npm test` and `npm install` run with `--if-stale`: it compiles when the
 * sources changed since the last build (or there is none) and otherwise leaves dist/ alone, so a repeat start does
 * not wait for tsc. Run on a small project of its own (the real tsconfig files and compiler, a two-file src/), so
 * that the real tree is never rebuilt under the other tests.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDir } from './helpers/temp-dir.js';

const ROOT = join(import.meta.dirname, '..');
let dir: string;

function build(...args: string[]) {
  const run = spawnSync(process.execPath, [join(dir, 'scripts', 'build.js'), ...args], { cwd: dir, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
const mainJs = () => join(dir, 'dist', 'main.js');
const builtAt = () => statSync(mainJs()).mtimeMs;
const stamp = () => readFileSync(join(dir, 'dist', '.build-hash'), 'utf8');
const write = (file: string, text: string) => writeFileSync(join(dir, 'src', file), text);

beforeAll(() => {
  dir = testDir('munidata-build-');
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'src'));
  for (const file of ['scripts/build.js', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) {
    copyFileSync(join(ROOT, file), join(dir, file));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  write('main.ts', "import { greeting } from './greeting.js';\nconsole.log(greeting);\n");
  write('greeting.ts', "export const greeting: string = 'olá';\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('scripts/build.js', () => {
  it('compiles a tree that was never built, and records what it compiled', () => {
    const run = build('--if-stale');
    expect(run.status, run.output).toBe(0);
    expect(run.output).toMatch(/compiling/);
    expect(readFileSync(mainJs(), 'utf8')).toContain("from './greeting.js'");
    expect(stamp()).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('leaves an up-to-date build alone, saying nothing', () => {
    const before = builtAt();
    const run = build('--if-stale');
    expect(run).toEqual({ status: 0, output: '' });
    expect(builtAt()).toBe(before);
  });

  it('compiles again when a source changes, and when a file is added or removed', () => {
    write('greeting.ts', "export const greeting: string = 'bom dia';\n");
    expect(build('--if-stale').output).toMatch(/sources changed/);
    expect(readFileSync(join(dir, 'dist', 'greeting.js'), 'utf8')).toContain('bom dia');

    const afterEdit = stamp();
    write('extra.ts', 'export const extra = 1;\n');
    expect(build('--if-stale').status).toBe(0);
    expect(existsSync(join(dir, 'dist', 'extra.js'))).toBe(true);
    expect(stamp()).not.toBe(afterEdit);

    const withExtra = stamp();
    rmSync(join(dir, 'src', 'extra.ts'));
    expect(build('--if-stale').output).toMatch(/sources changed/);
    expect(stamp()).not.toBe(withExtra);
    expect(stamp()).toBe(afterEdit); // the same sources as before: the same hash
  });

  it('never takes a failed compile for a good one, even once the sources are back as they were', () => {
    write('greeting.ts', 'export const greeting: string = 42;\n');
    const failed = build('--if-stale');
    expect(failed.status).not.toBe(0);
    expect(failed.output).toMatch(/TS2322/);
    expect(existsSync(join(dir, 'dist', '.build-hash'))).toBe(false);
    expect(build('--if-stale').status).not.toBe(0); // still stale: tried again, fails again
    // tsc wrote dist/greeting.js from the bad source; back to the last good source, it is compiled again.
    write('greeting.ts', "export const greeting: string = 'bom dia';\n");
    expect(build('--if-stale').output).toMatch(/compiling/);
    expect(readFileSync(join(dir, 'dist', 'greeting.js'), 'utf8')).toContain('bom dia');
    expect(build('--if-stale')).toEqual({ status: 0, output: '' });
  });

  it('always compiles without --if-stale (npm run build)', () => {
    const before = builtAt();
    const run = build();
    expect(run.status, run.output).toBe(0);
    expect(builtAt()).toBeGreaterThan(before);
  });
});
