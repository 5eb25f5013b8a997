/**
 * Folders for the files of a test (store copies, CLI inputs), all inside the run's own folder, which the global
 * teardown removes: a test run leaves nothing in the system's temporary folder, even when a file's own cleanup
 * never ran (a timeout, a killed worker). Each copy of the demo store is some 170 MB.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
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
