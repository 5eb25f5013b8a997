/**
 * The real compiled CLI (`node bin/munidata.js …`), each test on its own empty store in a temp directory.
 * `npm test` builds dist/ first (pretest); these tests only check that it is there.
 */

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PLANS } from '../src/admin/default-plans.js';
import { testDir } from './helpers/temp-dir.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/munidata.js', import.meta.url));
const DIST_MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const INE_SAMPLE = fileURLToPath(new URL('fixtures/ine-indicator-sample.json', import.meta.url));
const BASE_SAMPLE = fileURLToPath(new URL('fixtures/base-contracts-sample.json', import.meta.url));

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

const dirs: string[] = [];

/**
 * Each test runs the CLI up to a dozen times, each a Node process that loads the compiled CLI and opens a store (about
 * 0.7 s of CPU since the commands import their work when they run; 1.2 s before). Beside the suite's other worker and
 * its browsers, a start took 5 s and three tests of `users` passed the suite's 30 s; the time allowed is the spawns',
 * not a test's that would hang.
 */
const SPAWNING = { timeout: 120_000 };

/**
 * The child's environment: ours, with its own store and quiet logs. Vitest puts Vite's BASE_URL ("/") into
 * process.env; it is dropped, so the CLI derives its own from host and port.
 */
function childEnv(db: string): NodeJS.ProcessEnv {
  const { BASE_URL: _viteBaseUrl, ...env } = process.env;
  return { ...env, MUNIDATA_DB: db, LOG_LEVEL: 'silent' };
}

/** A fresh store path in its own temp directory (the file does not exist yet). */
function freshDb(): string {
  const dir = testDir('munidata-cli-');
  dirs.push(dir);
  return join(dir, 'cli.db');
}

/** Runs the CLI on `db`; never throws on a non-zero exit, returns the code instead. */
async function run(db: string, args: string[]): Promise<RunResult> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: childEnv(db),
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof e.code !== 'number') throw error; // not an exit status (e.g. ENOENT): a broken test setup
    return { code: e.code, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Runs the CLI and expects success; returns the parsed JSON it printed. */
async function runJson(db: string, args: string[]): Promise<any> {
  const r = await run(db, [...args, '--json']);
  if (r.code !== 0) throw new Error(`munidata ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

beforeAll(() => {
  if (!existsSync(DIST_MAIN)) {
    throw new Error(`${DIST_MAIN} is missing: build the CLI first (npm run build), or run the tests with npm test`);
  }
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('migrate and plans list', SPAWNING, () => {
  it('seeds the default plans with their limits', async () => {
    const db = freshDb();
    expect(await runJson(db, ['migrate'])).toMatchObject({ migrated: true, plans: DEFAULT_PLANS.map((p) => p.code) });
    const plans = await runJson(db, ['plans', 'list']);
    const byCode = new Map(plans.map((p: any) => [p.code, p]));
    expect([...byCode.keys()].sort()).toEqual(['free', 'premium', 'premium_indicators']);
    for (const seed of DEFAULT_PLANS) expect(byCode.get(seed.code)).toEqual(seed);
    expect(byCode.get('free')).toMatchObject({ api_access: false, requests_per_minute: 30, requests_per_month: 1_000 });
    expect(byCode.get('premium')).toMatchObject({
      api_access: true,
      requests_per_minute: 600,
      requests_per_month: 100_000,
    });
    expect(byCode.get('premium_indicators')).toMatchObject({
      domains: ['indicators'],
      requests_per_minute: 300,
      requests_per_month: 50_000,
      alerts_history_days: null,
    });
  });
});

describe('accounts', SPAWNING, () => {
  it('creates an account and lists it', async () => {
    const db = freshDb();
    const account = await runJson(db, ['accounts', 'create', '--name', 'Câmara Teste', '--plan', 'premium']);
    expect(account).toMatchObject({ id: expect.any(Number), name: 'Câmara Teste', plan_code: 'premium', beta: false });
    const list = await runJson(db, ['accounts', 'list']);
    expect(list).toContainEqual(
      expect.objectContaining({ id: account.id, name: 'Câmara Teste', plan_code: 'premium' }),
    );
  });

  it('refuses an unknown plan with exit code 2, naming the plans', async () => {
    const db = freshDb();
    const r = await run(db, ['accounts', 'create', '--name', 'X', '--plan', 'gold', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('gold');
    for (const code of ['free', 'premium', 'premium_indicators']) expect(r.stderr).toContain(code);
    expect(await runJson(db, ['accounts', 'list'])).toEqual([]);
  });
});

describe('keys', SPAWNING, () => {
  async function withAccount(): Promise<{ db: string; id: number }> {
    const db = freshDb();
    const account = await runJson(db, ['accounts', 'create', '--name', 'Câmara Teste', '--plan', 'premium']);
    return { db, id: account.id };
  }

  it('prints the secret once; lists never show it nor its hash; the store file does not hold it', async () => {
    const { db, id } = await withAccount();
    const created = await runJson(db, ['keys', 'create', '--account', String(id)]);
    expect(created.secret).toMatch(/^sk_live_[A-Za-z0-9]{46}$/);
    expect(created).toMatchObject({ id: expect.any(Number), account_id: id, revoked_at: null, expires_at: null });
    const secret: string = created.secret;
    const hash = createHash('sha256').update(secret).digest('hex');

    const r = await run(db, ['keys', 'list', '--account', String(id), '--json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout);
    expect(list).toHaveLength(1);
    expect(list[0].id).toBe(created.id);
    expect(list[0]).not.toHaveProperty('secret');
    expect(list[0]).not.toHaveProperty('hash');
    expect(r.stdout).not.toContain(secret);
    expect(r.stdout).not.toContain(secret.slice('sk_live_'.length));
    expect(r.stdout).not.toContain(hash);
    expect(r.stdout).not.toMatch(/[0-9a-f]{64}/);
    // The human-readable listing too.
    const human = await run(db, ['keys', 'list', '--account', String(id)]);
    expect(human.code).toBe(0);
    expect(human.stdout).not.toContain(secret);
    expect(human.stdout).not.toContain(hash);

    const files = [db, `${db}-wal`]
      .filter((file) => existsSync(file))
      .map((file) => ({ file, bytes: readFileSync(file) }));
    // The key's 12-character lookup is stored in clear: finding it proves these are the files the CLI wrote.
    const lookup = secret.slice('sk_live_'.length, 'sk_live_'.length + 12);
    expect(files.some(({ bytes }) => bytes.includes(lookup))).toBe(true);
    for (const { file, bytes } of files) {
      expect(bytes.includes(secret), `${file} holds the secret`).toBe(false);
      expect(bytes.includes(secret.slice('sk_live_'.length)), `${file} holds the secret's random part`).toBe(false);
    }
  });

  it('refuses an unknown scope with exit code 2, naming it', async () => {
    const { db, id } = await withAccount();
    const r = await run(db, ['keys', 'create', '--account', String(id), '--scopes', 'indicators:read,bogus', '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('bogus');
    expect(r.stderr).not.toMatch(/sk_live_/);
    expect(await runJson(db, ['keys', 'list', '--account', String(id)])).toEqual([]);
  });

  it('keeps the scopes asked for', async () => {
    const { db, id } = await withAccount();
    const created = await runJson(db, ['keys', 'create', '--account', String(id), '--scopes', 'indicators:read']);
    expect(created.scopes).toEqual(['indicators:read']);
  });

  it('refuses an expiry date in the past with exit code 2', async () => {
    const { db, id } = await withAccount();
    const r = await run(db, ['keys', 'create', '--account', String(id), '--expires', '2020-01-01', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('2020-01-01');
    expect(await runJson(db, ['keys', 'list', '--account', String(id)])).toEqual([]);
  });

  it('revokes a key once; a second revoke exits 2', async () => {
    const { db, id } = await withAccount();
    const created = await runJson(db, ['keys', 'create', '--account', String(id)]);
    expect(await runJson(db, ['keys', 'revoke', String(created.id)])).toEqual({ id: created.id, revoked: true });
    const list = await runJson(db, ['keys', 'list', '--account', String(id)]);
    expect(list).toHaveLength(1);
    expect(list[0].revoked_at).toEqual(expect.any(String));
    expect(Number.isNaN(Date.parse(list[0].revoked_at))).toBe(false);

    const again = await run(db, ['keys', 'revoke', String(created.id)]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(String(created.id));
  });
});

describe('oauth keys', SPAWNING, () => {
  it('rotate puts a new key first and keeps the retired one published, with when it was retired', async () => {
    const db = freshDb();
    await runJson(db, ['migrate']);
    const [first] = await runJson(db, ['oauth', 'keys', 'list']);
    expect(first).toEqual({ kid: expect.any(String), createdAt: expect.any(String), retiredAt: null });
    const rotated = await runJson(db, ['oauth', 'keys', 'rotate']);
    expect(rotated).toEqual([
      { kid: expect.any(String), createdAt: expect.any(String), retiredAt: null },
      { ...first, retiredAt: expect.any(String) },
    ]);
    expect(rotated[0].kid).not.toBe(first.kid);
    expect(rotated[1].retiredAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await runJson(db, ['oauth', 'keys', 'list'])).toEqual(rotated);
  });
});

describe('users', SPAWNING, () => {
  it('creates a console user with a one-time set-password link, lists them (never a hash), disables them', async () => {
    const db = freshDb();
    const account = await runJson(db, ['accounts', 'create', '--name', 'Câmara Teste', '--plan', 'premium']);
    const human = await run(db, [
      'users',
      'create',
      '--account',
      String(account.id),
      '--email',
      'Ana@Example.pt',
      '--role',
      'owner',
    ]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/\/console\/set-password\?token=[A-Za-z0-9_-]{32}\n/);
    const created = await runJson(db, [
      'users',
      'create',
      '--account',
      String(account.id),
      '--email',
      'rui@example.pt',
      '--role',
      'member',
      '--name',
      'Rui',
    ]);
    expect(created).toMatchObject({
      email: 'rui@example.pt',
      display_name: 'Rui',
      role: 'member',
      has_password: false,
      disabled_at: null,
    });
    expect(created.set_password_link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/set-password\?token=/);
    const list = await runJson(db, ['users', 'list', '--account', String(account.id)]);
    expect(list.map((u: { email: string }) => u.email)).toEqual(['ana@example.pt', 'rui@example.pt']);
    expect(JSON.stringify(list)).not.toMatch(/argon2|token|password_hash/);
    expect(await runJson(db, ['users', 'disable', String(created.id)])).toEqual({ id: created.id, disabled: true });
    expect((await runJson(db, ['users', 'list']))[1].disabled_at).toEqual(expect.any(String));
  });

  const setPasswordLink =
    'prints a fresh set-password link for a user (a reset), and refuses a disabled or unknown one with exit code 2';
  it(setPasswordLink, async () => {
    const db = freshDb();
    const account = await runJson(db, ['accounts', 'create', '--name', 'Câmara Teste', '--plan', 'premium']);
    const created = await runJson(db, [
      'users',
      'create',
      '--account',
      String(account.id),
      '--email',
      'ana@example.pt',
      '--role',
      'owner',
    ]);
    const human = await run(db, ['users', 'reset-password', String(created.id)]);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('ana@example.pt');
    expect(human.stdout).toMatch(/\/console\/set-password\?token=[A-Za-z0-9_-]{32}\n/);
    const reset = await runJson(db, ['users', 'reset-password', String(created.id)]);
    expect(reset).toMatchObject({ id: created.id, email: 'ana@example.pt' });
    expect(reset.set_password_link).toMatch(/\/console\/set-password\?token=/);
    expect(reset.set_password_link).not.toBe(created.set_password_link);
    await runJson(db, ['users', 'disable', String(created.id)]);
    for (const id of [String(created.id), '999']) {
      const refused = await run(db, ['users', 'reset-password', id]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('No active user');
    }
  });

  it('refuses a taken email, an unknown role and an unknown account with exit code 2', async () => {
    const db = freshDb();
    const account = await runJson(db, ['accounts', 'create', '--name', 'Câmara Teste', '--plan', 'premium']);
    const id = String(account.id);
    await runJson(db, ['users', 'create', '--account', id, '--email', 'ana@example.pt', '--role', 'owner']);
    const taken = await run(db, ['users', 'create', '--account', id, '--email', 'ANA@example.pt', '--role', 'member']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('exists already');
    const role = await run(db, ['users', 'create', '--account', id, '--email', 'rui@example.pt', '--role', 'king']);
    expect(role.code).toBe(2);
    expect(role.stderr).toContain('owner, admin, member');
    expect(
      (await run(db, ['users', 'create', '--account', '999', '--email', 'x@example.pt', '--role', 'member'])).code,
    ).toBe(2);
  });
});

describe('plans create and update', SPAWNING, () => {
  it('creates a plan and updates one field, keeping the others', async () => {
    const db = freshDb();
    const created = await runJson(db, [
      'plans',
      'create',
      '--code',
      'trial',
      '--api',
      '--domains',
      'indicators',
      '--no-raw-values',
      '--rpm',
      '10',
      '--monthly',
      '100',
      '--history-years',
      '3',
      '--alerts-days',
      '7',
    ]);
    const expected = {
      code: 'trial',
      api_access: true,
      domains: ['indicators'],
      raw_values: false,
      requests_per_minute: 10,
      requests_per_month: 100,
      history_years: 3,
      alerts_history_days: 7,
    };
    expect(created).toMatchObject(expected);

    const updated = await runJson(db, ['plans', 'update', '--code', 'trial', '--monthly', '200']);
    expect(updated).toEqual({ ...created, requests_per_month: 200 });
    const listed = (await runJson(db, ['plans', 'list'])).find((p: any) => p.code === 'trial');
    expect(listed).toEqual({ ...created, requests_per_month: 200 });
  });

  it('refuses to create an existing plan and an unknown domain with exit code 2', async () => {
    const db = freshDb();
    const dup = await run(db, ['plans', 'create', '--code', 'premium', '--json']);
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('premium');

    const bad = await run(db, ['plans', 'create', '--code', 'trial', '--domains', 'foo', '--json']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('foo');
    const codes = (await runJson(db, ['plans', 'list'])).map((p: any) => p.code);
    expect(codes).not.toContain('trial');
    // The seeded premium plan is untouched by the refused create.
    expect((await runJson(db, ['plans', 'list'])).find((p: any) => p.code === 'premium')).toEqual(
      DEFAULT_PLANS.find((p) => p.code === 'premium'),
    );
  });
});

describe('beta', SPAWNING, () => {
  it('gates an operation and lists it; refuses an unknown target with exit code 2', async () => {
    const db = freshDb();
    expect(await runJson(db, ['beta', 'add', 'indicators_stats'])).toEqual({ target: 'indicators_stats', beta: true });
    expect(await runJson(db, ['beta', 'list'])).toEqual(['indicators_stats']);

    const r = await run(db, ['beta', 'add', 'not_an_op', '--json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not_an_op');
    expect(await runJson(db, ['beta', 'list'])).toEqual(['indicators_stats']);
  });
});

describe('demo', SPAWNING, () => {
  it('loads the demo data; a second run changes nothing', async () => {
    const db = freshDb();
    const first = await runJson(db, ['demo']);
    // `demo` migrates first, and migrate has loaded the municipalities and the catalogue: the demo gives every
    // indicator its (synthetic) source and data.
    expect(first.municipalities).toEqual({ inserted: 0, updated: 0, unchanged: 308 });
    expect(first.indicators).toMatchObject({ inserted: 0, unchanged: 0 });
    expect(first.indicators.updated).toBeGreaterThanOrEqual(30);
    expect(first.observations.inserted).toBeGreaterThan(0);
    expect(first.skipped).toEqual([]);

    const second = await runJson(db, ['demo']);
    expect(second.seed).toBe(first.seed);
    expect(second.municipalities).toEqual({ inserted: 0, updated: 0, unchanged: 308 });
    expect(second.indicators).toEqual({ inserted: 0, updated: 0, unchanged: first.indicators.updated });
    expect(second.observations).toEqual({ inserted: 0, updated: 0, unchanged: first.observations.inserted });
    expect(second.skipped).toEqual([]);

    // One demo account, however many times the demo is loaded.
    const accounts = await runJson(db, ['accounts', 'list']);
    expect(accounts.filter((a: any) => a.name === 'Demo account')).toHaveLength(1);
  }, 180_000); // two demo loads in a process of their own: over 60 s on PostgreSQL under load
});

describe('demo remove', SPAWNING, () => {
  const deletesGeneratedData =
    'deletes the generated data in one go and keeps the imported contracts; a second run deletes nothing';
  it(deletesGeneratedData, async () => {
    const db = freshDb();
    const loaded = await runJson(db, ['demo', '--contracts', '300']);
    await runJson(db, ['import', 'base-contracts', BASE_SAMPLE]);
    const removed = await runJson(db, ['demo', 'remove']);
    expect(removed.contracts).toBe(loaded.procurement.contracts.inserted);
    expect(removed.observations).toBe(loaded.observations.inserted);
    expect(removed.signals).toBeGreaterThan(0);
    const again = await runJson(db, ['demo', 'remove']);
    expect(again).toMatchObject({
      contracts: 0,
      announcements: 0,
      amendments: 0,
      observations: 0,
      signals: 0,
      cases: 0,
    });
    // The real sample is still there: importing it again changes nothing.
    const reimport = await runJson(db, ['import', 'base-contracts', BASE_SAMPLE]);
    expect(reimport.written.contracts).toMatchObject({ inserted: 0, unchanged: 50 });
    // The demo account (and its keys) stays: a later `demo` loads the data again.
    expect((await runJson(db, ['accounts', 'list'])).filter((a: any) => a.name === 'Demo account')).toHaveLength(1);
  }, 180_000);
});

describe('migrate, then real data only', SPAWNING, () => {
  it('a BASE file imports into a store that only migrate has seeded', async () => {
    const db = freshDb();
    await runJson(db, ['migrate']);
    const report = await runJson(db, ['import', 'base-contracts', BASE_SAMPLE]);
    expect(report.rows_read).toBe(50);
    expect(report.accepted + report.rejected.length).toBe(50);
    expect(report.written.contracts.inserted).toBe(report.accepted);
  }, 60_000);
});

describe('import ine', SPAWNING, () => {
  it('places the 308 municipalities of every period; refuses an unknown indicator, listing the keys', async () => {
    const db = freshDb();
    // The indicators are what this is about: a few contracts keep the demo load (and its detection) short.
    await runJson(db, ['demo', '--contracts', '300']);
    const report = await runJson(db, ['import', 'ine', INE_SAMPLE, '--indicator', 'birth_rate']);
    expect(report.indicator).toBe('birth_rate');
    expect(report.mode).toBe('replace');
    expect(report.source).toMatch(/^INE 0008264/);
    expect(report.periods.length).toBeGreaterThan(0);
    expect(report.unknown_periods).toEqual([]);
    expect(report.unknown_period_rows).toBe(0);
    expect(report.unplaced).toEqual([]);
    expect(report.placed.rows).toBe(308 * report.periods.length);
    const aggregates = Object.values(report.aggregates as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(report.rows_read).toBe(report.placed.rows + aggregates + report.non_total.count);
    // Every period: its rows are the 308 municipalities plus the same number of aggregates.
    const perPeriodAggregates = aggregates / report.periods.length;
    for (const period of report.periods) expect(period.rows, period.label).toBe(308 + perPeriodAggregates);

    // Without --indicator, the indicator is the one whose INE code (data/indicators.json) is the file's.
    const again = await runJson(db, ['import', 'ine', INE_SAMPLE]);
    expect(again.indicator).toBe('birth_rate');
    expect(again.placed.unchanged).toBe(again.placed.rows);
    // The birth rate (0008264, ‰) is not the population: refused, nothing written, unless --force.
    const wrong = await run(db, ['import', 'ine', INE_SAMPLE, '--indicator', 'population', '--json']);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/contradicts the indicator; pass --force/);

    const bad = await run(db, ['import', 'ine', INE_SAMPLE, '--indicator', 'no_such_indicator', '--json']);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('no_such_indicator');
    expect(bad.stderr).toContain('birth_rate');
    expect(bad.stderr).toContain('population');
  }, 180_000);
});

describe('help', SPAWNING, () => {
  it('lists the commands', async () => {
    const r = await run(freshDb(), ['--help']);
    expect(r.code).toBe(0);
    for (const command of ['serve', 'migrate', 'demo', 'accounts', 'keys', 'plans', 'import']) {
      expect(r.stdout, command).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });
});
