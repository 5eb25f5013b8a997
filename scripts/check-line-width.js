#!/usr/bin/env node
// Biome's formatter cannot break strings, templates or comments, so its lineWidth alone does not enforce the width.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 120;
const ROOT = new URL('..', import.meta.url);
const files = execFileSync('git', ['ls-files', '-z', 'src', 'assets', 'test', 'bench', 'scripts'], { cwd: ROOT })
  .toString()
  .split('\0')
  .filter((file) => /\.(ts|js|mjs|cjs|css)$/.test(file));
let wide = 0;
for (const file of files) {
  readFileSync(new URL(file, ROOT), 'utf8')
    .split(/\r?\n/)
    .forEach((line, i) => {
      const length = [...line].length;
      if (length > MAX) {
        console.log(`${file}:${i + 1}: ${length} characters`);
        wide++;
      }
    });
}
if (wide > 0) {
  console.error(`${wide} line(s) wider than ${MAX} characters`);
  process.exit(1);
}
