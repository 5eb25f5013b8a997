/**
 * Folders for the files of a test (store copies, CLI inputs), all inside the run's own folder, which the global
 * teardown removes: a test run leaves nothing in the system's temporary folder, even when a file's own cleanup
 * never ran (a timeout, a killed worker). Each copy of the demo store is some 170 MB.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The run's folder: named by the process that ran the global setup (workers inherit MUNIDATA_TEST_RUN). */
export function runDir(run: string = process.env.MUNIDATA_TEST_RUN ?? String(process.pid)): string {
  return join(tmpdir(), `munidata-test-${run}`);
}

/** A new, empty folder inside the run's folder. */
export function testDir(prefix = 'munidata-'): string {
  const parent = runDir();
  mkdirSync(parent, { recursive: true });
  return mkdtempSync(join(parent, prefix));
}

/** Removes the folders of runs whose process is gone (a run that was killed never reached its teardown). */
export function removeOrphanRunDirs(): void {
  for (const name of readdirSync(tmpdir())) {
    const run = /^munidata-test-(\d+)$/.exec(name)?.[1];
    if (run !== undefined && !alive(Number(run))) rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
