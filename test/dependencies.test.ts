/**
 * What package.json promises about dependencies holds for the installed tree (CONTRIBUTING.md, Style): every
 * dependency is pinned to one exact version, and every package the service runs with (the lock file's non-dev
 * entries) declares Node engines that admit the whole range our `engines` names, so that a user on any Node we
 * claim gets no package that says it needs another.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8'));

interface LockEntry {
  version?: string;
  dev?: boolean;
  engines?: { node?: string } | string[];
}

describe('dependencies', () => {
  it('pins every dependency, dev dependency and override to one exact version', () => {
    const ranges = { ...manifest.dependencies, ...manifest.devDependencies, ...manifest.overrides };
    const loose = Object.entries(ranges).filter(([, range]) => semver.valid(String(range)) === null);
    expect(loose).toEqual([]);
  });

  it("admits our Node range in every runtime package's own engines", () => {
    const ours: string = manifest.engines.node;
    const packages = Object.entries(lock.packages as Record<string, LockEntry>).filter(
      ([path, entry]) => path !== '' && !entry.dev,
    );
    expect(packages.length).toBeGreaterThan(50);
    const narrower = packages.flatMap(([path, entry]) => {
      const theirs = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return theirs && !semver.subset(ours, theirs)
        ? [`${path.replace(/^.*node_modules\//, '')}@${entry.version}: ${theirs}`]
        : [];
    });
    expect(narrower).toEqual([]);
  });
});
