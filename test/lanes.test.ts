/** The lanes of the suite (test/lanes.ts): every file named there is a test file that exists. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEEDS, NOT_IN_FAST_LANE } from './lanes.js';

const ROOT = join(import.meta.dirname, '..');

describe('the fast lane', () => {
  it('leaves out only test files that exist, so a renamed file cannot slip into it unnoticed', () => {
    const files = new Set(readdirSync(join(ROOT, 'test')).map((name) => `test/${name}`));
    for (const [need, names] of Object.entries(NEEDS)) {
      for (const name of names) expect(files.has(name) && existsSync(join(ROOT, name)), `${need}: ${name}`).toBe(true);
    }
  });

  it('keeps most of the suite', () => {
    const all = readdirSync(join(ROOT, 'test')).filter((name) => name.endsWith('.test.ts'));
    expect(NOT_IN_FAST_LANE.length).toBeLessThan(all.length / 3);
    expect(NOT_IN_FAST_LANE).toContain('test/docs-page.test.ts');
  });
});
