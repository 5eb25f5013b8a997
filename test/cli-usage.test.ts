/**
 * Usage errors of the real compiled CLI (`node bin/munidata.js …`): a date argument is a day of the calendar
 * (one reader, lib/calendar.ts, as every date the service reads), and every usage error exits 2, as a refused
 * command does; help exits 0. Nothing runs before the arguments are read: no store is made, no request is sent.
 */
import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDir } from './helpers/temp-dir.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/munidata.js', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

const dir = testDir('munidata-cli-usage-');
const db = join(dir, 'never-made.db');

beforeAll(() => {
  if (!existsSync(DIST_MAIN)) throw new Error(`${DIST_MAIN} is missing: build the CLI first (npm run build)`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { BASE_URL: _vite, ...env } = process.env;
  // Addresses that cannot answer: a command that got past its arguments would fail on them, not exit 2.
  const childEnv = {
    ...env,
    MUNIDATA_DB: db,
    LOG_LEVEL: 'silent',
    INE_API_URL: 'http://127.0.0.1:9',
    BASE_DATA_URL: 'http://127.0.0.1:9',
  };
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error;
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('dates on the command line', () => {
  it.each(
    [
      ['sync', 'ine', '--since', '2024-02-30'],
      ['sync', 'ine', '--since', '2024-13'],
      ['sync', 'ine', '--since', '2024-13-45'],
      ['sync', 'base', '--since', '2023-02-29'],
      ['sync', 'base', '--since', '2024-00'],
      ['sync', 'base', '--since', '24'],
      ['keys', 'create', '--account', '1', '--expires', '2031-04-31'],
      ['keys', 'create', '--account', '1', '--expires', '2031-04'],
    ].map((args) => [args.join(' '), args]),
  )('%s is a usage error: exit 2, naming the value, nothing run', async (_, args) => {
    const r = await run(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`"${args[args.length - 1]}"`);
    expect(existsSync(db), 'a store was made: the command ran').toBe(false);
  });
});

describe('usage errors exit 2 everywhere', () => {
  it.each([
    [['no-such-command']],
    [['sync', 'ine', '--no-such-option']],
    [['keys', 'create']],
    [['keys', 'create', '--account', 'x']],
    [['keys', 'create', '--account', '1e400']],
    [['keys', 'list', '--account', '1e300']],
    [['demo', '--contracts', 'many']],
  ])('munidata %j exits 2', async (args) => {
    const r = await run(args);
    expect(r.code, r.stderr).toBe(2);
    expect(existsSync(db), 'a store was made: the command ran').toBe(false);
  });

  it('help exits 0', async () => {
    expect((await run(['--help'])).code).toBe(0);
    expect((await run(['sync', 'ine', '--help'])).code).toBe(0);
  });
});
