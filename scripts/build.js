#!/usr/bin/env node
/**
 * Compiles src/ into dist/ with tsc (tsconfig.build.json), and records a hash of what the build read in
 * dist/.build-hash. With `--if-stale` it compiles only when that hash differs from the recorded one (or there is
 * no dist/main.js): `npm start`, `npm test` and `npm install` call it so, and a start on a built tree skips tsc —
 * a whole compile takes 6 to 18 s here, hashing the sources about 50 ms. `npm run build` always compiles.
 *
 * The hash covers every file under src/, the two tsconfig files and package-lock.json (a new TypeScript or a new
 * type package can change the output), by path and content: a checkout, an edit, a new, renamed or deleted file
 * all change it; timestamps play no part. tsc's own `--incremental` was measured too: 2 s when nothing changed,
 * since it still reads and checks the whole program.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
const STAMP = join(DIST, '.build-hash');
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The files of `path` (a file, or a folder walked in name order), relative to the root; none if it is absent. */
function filesOf(path) {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesOf(join(path, name)));
}

function sourceHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(filesOf)) {
    hash.update(`${file.split(sep).join('/')}\0`);
    hash.update(readFileSync(join(ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const ifStale = process.argv.includes('--if-stale');
const hash = sourceHash();
const recorded = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null;
if (ifStale && recorded === hash && existsSync(join(DIST, 'main.js'))) process.exit(0);

if (ifStale) console.error(recorded ? 'munidata: sources changed, compiling…' : 'munidata: compiling…');
// tsc writes what it can even when it fails: no record until it succeeds, so a failed or interrupted compile is
// never taken for a good one (not even after the sources go back to what the record named).
rmSync(STAMP, { force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
mkdirSync(DIST, { recursive: true });
// The hash of the sources as they were when the compile started: an edit made meanwhile is compiled next time.
writeFileSync(STAMP, `${hash}\n`);
