/**
 * The compiled CLI as a new user meets it (`node bin/munidata.js …`; `npm test` builds dist/ first): its help and
 * the README's command table say the same (every command and option of every group's help is in the table, derived
 * from the help itself), the OAuth library's runtime warning stays out of commands that start no server, each
 * command answers people in words and scripts in JSON (`--json`), and refusals name their cause.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../src/cli/program.js';
import { readIneMappings } from '../src/ingest/catalogue.js';
import { SIGNAL_FAMILIES, SIGNAL_TYPES } from '../src/signals/catalogue.js';
import { testDir } from './helpers/temp-dir.js';

const BIN = fileURLToPath(new URL('../bin/munidata.js', import.meta.url));
const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const INE_SAMPLE = fileURLToPath(new URL('fixtures/ine-indicator-sample.json', import.meta.url));

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
}

/**
 * Runs the CLI on its own store file; never throws on a non-zero exit. Vite's BASE_URL is dropped (see cli.test.ts).
 */
async function munidata(db: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  const { BASE_URL: _vite, ...inherited } = process.env;
  const started = Date.now();
  const childEnv = { ...inherited, MUNIDATA_DB: db, LOG_LEVEL: 'silent', ...env };
  const result = await promisify(execFile)(process.execPath, [BIN, ...args], {
    env: childEnv,
    maxBuffer: 16 << 20,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

const freshDb = () => join(testDir('munidata-cli-help-'), 'cli.db');

// ── the help, as commander prints it ────────────────────────────────────────────────────────────────────────────

/** The terms of a help section (`Options:`, `Commands:`): each entry's first column, continuation lines left out. */
function section(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(`${title}:`);
  if (start === -1) return [];
  const terms: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') break;
    const term = /^ {2}(\S.*?)(?:\s{2,}|$)/.exec(line);
    if (term) terms.push(term[1]);
  }
  return terms;
}

interface HelpNode {
  readonly path: readonly string[];
  readonly options: readonly string[];
  readonly group: boolean;
  readonly text: string;
}

/**
 * Every command of the tree, from its help as `munidata … --help` prints it (commander's own text, read in this
 * process: one CLI process per command would take minutes): its long options (but --help) and whether it has
 * commands.
 */
function helpTree(command: Command, path: string[] = []): HelpNode[] {
  const text = command.helpInformation();
  const options = section(text, 'Options')
    .flatMap((term) => term.match(/--[a-z][a-z-]*/g) ?? [])
    .filter((o) => o !== '--help');
  const subcommands = section(text, 'Commands')
    .map((term) => term.split(' ')[0])
    .filter((name) => name !== 'help');
  const below = subcommands.map((name) => {
    const sub = command.commands.find((c) => c.name() === name);
    if (!sub) throw new Error(`${[...path, name].join(' ')}: listed by the help, not in the tree`);
    return helpTree(sub, [...path, name]);
  });
  return [{ path, options, group: subcommands.length > 0, text }, ...below.flat()];
}

// ── the README's command table ──────────────────────────────────────────────────────────────────────────────────

/** The README's "Command line" section. */
function commandLineSection(): string {
  const start = README.indexOf('## Command line');
  expect(start).toBeGreaterThan(-1);
  return README.slice(start, README.indexOf('\n## ', start + 1));
}

interface TableEntry {
  readonly paths: readonly string[];
  readonly options: readonly string[];
  readonly span: string;
}

/**
 * Each code span of the table's first column, as the commands it names and the options it gives them:
 * `plans create\|update --code C [--api\|--no-api]` names `plans create` and `plans update`, with `--code`, `--api`
 * and `--no-api`. A command's words come first; the first option, `[`, or placeholder (`FILE`, `KEY_ID`) ends them.
 */
function tableEntries(): TableEntry[] {
  const rows = commandLineSection()
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => {
    const firstCell = row.split(/(?<!\\)\|/)[1];
    return [...firstCell.matchAll(/`([^`]+)`/g)].map(([, code]) => {
      const text = code.replaceAll('\\|', '|');
      let paths = [''];
      for (const word of text.split(/\s+/)) {
        if (!/^[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)*$/.test(word)) break;
        paths = paths.flatMap((p) => word.split('|').map((w) => (p === '' ? w : `${p} ${w}`)));
      }
      return { paths, options: text.match(/--[a-z][a-z-]*/g) ?? [], span: code };
    });
  });
}

describe('help and README', () => {
  it("lists in the README's command table every command and option the help of each group gives", async () => {
    const tree = helpTree(createProgram({}));
    // The tree read here is the one the binary prints.
    const printed = await munidata(freshDb(), ['--help']);
    expect(printed.stdout.replace(/\s+/g, ' ')).toBe(tree[0].text.replace(/\s+/g, ' '));
    const alerts = await munidata(freshDb(), ['alerts', 'rule', 'create', '--help']);
    const alertsNode = tree.find((n) => n.path.join(' ') === 'alerts rule create');
    expect(alerts.stdout.replace(/\s+/g, ' ')).toBe(alertsNode?.text.replace(/\s+/g, ' '));
    const entries = tableEntries();
    const runnable = tree.filter((node) => node.path.length > 0 && (!node.group || node.options.length > 0));
    expect(runnable.map((n) => n.path.join(' '))).toEqual(
      expect.arrayContaining(['alerts rule create', 'oauth clients create']),
    );
    const missing: string[] = [];
    for (const node of runnable) {
      const path = node.path.join(' ');
      const naming = entries.filter((e) => e.paths.includes(path));
      if (naming.length === 0) {
        missing.push(`${path} (no row)`);
        continue;
      }
      const given = new Set(naming.flatMap((e) => e.options));
      for (const option of node.options) if (!given.has(option)) missing.push(`${path} ${option}`);
    }
    expect(missing, 'README command table').toEqual([]);
    // And nothing in the table that the help does not have.
    const known = new Set(tree.map((n) => n.path.join(' ')));
    expect(entries.flatMap((e) => e.paths).filter((p) => !known.has(p))).toEqual([]);
    for (const entry of entries) {
      const offered = new Set(tree.filter((n) => entry.paths.includes(n.path.join(' '))).flatMap((n) => n.options));
      for (const option of entry.options) expect(offered.has(option), `${entry.span}: ${option}`).toBe(true);
    }
    // The global options, before the table.
    const top = tree[0];
    for (const option of top.options) expect(commandLineSection(), option).toContain(`\`${option}\``);
    // Said once each: a default commander prints is not written into the description too.
    for (const node of tree) {
      expect(node.text.replace(/\s+/g, ' '), node.path.join(' ')).not.toMatch(/\([^()]*default[^()]*\) \(default: /);
    }
    // What the service is: not only REST, not only SQLite.
    expect(top.text).toMatch(/REST \/v1.*A2A.*MCP/s);
    expect(top.text).not.toMatch(/embedded SQLite store/);
  }, 60_000);

  it('names every signal type and family of the catalogue in the help of alerts rule create, in its order', () => {
    const create = helpTree(createProgram({})).find((n) => n.path.join(' ') === 'alerts rule create');
    const text = create?.text.replace(/\s+/g, ' ');
    const types = SIGNAL_TYPES.map((t) => t.key).join(', ');
    expect(text).toContain(`--signal-type <type> signal_type: ${types} (repeatable)`);
    expect(text).toContain(`signal_type: every type of ${SIGNAL_FAMILIES.map((f) => f.key).join(', ')} (repeatable)`);
  });

  it('prints no OAuth-library warning where no server starts: help, migrate, plans list', async () => {
    const db = freshDb();
    for (const args of [
      ['--help'],
      ['alerts', '--help'],
      ['oauth', 'clients', '--help'],
      ['migrate'],
      ['plans', 'list'],
    ]) {
      const r = await munidata(db, args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stderr, args.join(' ')).not.toMatch(/oidc-provider|Unsupported runtime/);
    }
  }, 60_000);
});

describe('answers in words, or in JSON with --json', () => {
  it('migrate says what it applied to a new store, then that there was nothing to apply', async () => {
    const db = freshDb();
    const first = await munidata(db, ['migrate']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/applied \d+ schema migrations: 1 foundation, /);
    expect(first.stdout).toMatch(/seeded the default plans free, premium/);
    expect(first.stdout).not.toMatch(/up to date/);
    const second = await munidata(db, ['migrate']);
    expect(second.stdout).toMatch(/was up to date: nothing to apply/);
    const json = JSON.parse((await munidata(freshDb(), ['--json', 'migrate'])).stdout);
    expect(json.migrated).toBe(true);
    expect(json.migrations[0]).toEqual({ version: 1, name: 'foundation' });
  }, 60_000);

  it('demo, demo remove and import ine print lines for people, and their reports with --json', async () => {
    const db = freshDb();
    const demo = await munidata(db, ['demo', '--contracts', '0']);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/^Demo data loaded \(seed 42\)/);
    expect(demo.stdout).toMatch(/\n {2}contracts \(0 generated\): 0 inserted/);
    expect(demo.stdout).toMatch(/\nDetection at /);
    expect(demo.stdout).not.toMatch(/[{}]/);
    const imported = await munidata(db, ['import', 'ine', INE_SAMPLE, '--indicator', 'birth_rate']);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^INE 0008264 \(.*\) → birth_rate, replacing the demo series\n/);
    expect(imported.stdout).toMatch(/placed [\d,]+ \(/);
    expect(imported.stdout).not.toMatch(/[{}]/);
    const again = JSON.parse((await munidata(db, ['--json', 'import', 'ine', INE_SAMPLE])).stdout);
    expect(again).toMatchObject({ indicator: 'birth_rate', mode: 'merge' });
    const removed = await munidata(db, ['demo', 'remove']);
    expect(removed.stdout).toMatch(/^Demo data removed:\n/);
    expect(removed.stdout).not.toMatch(/[{}]/);
  }, 180_000);
});

/** A loopback port nothing listens on: one the system handed out and took back. */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('refusals that name their cause', () => {
  const syncEndsWithoutNetwork =
    'ends sync ine and sync base within seconds, exit 1, saying what could not be reached (no external network)';
  it(syncEndsWithoutNetwork, async () => {
    const db = freshDb();
    const port = await unusedPort();
    const env = {
      INE_API_URL: 'http://munidata-sync.invalid',
      BASE_DATA_URL: `http://127.0.0.1:${port}/api/1/datasets`,
    };
    const ine = await munidata(db, ['sync', 'ine'], env);
    expect(ine.code, ine.stderr).toBe(1);
    expect(ine.seconds).toBeLessThan(15);
    expect(ine.stderr).toMatch(
      /FAILED — .*http:\/\/munidata-sync\.invalid\/ine\/.*: cannot reach munidata-sync\.invalid/,
    );
    const indicators = [...readIneMappings()].filter(([, m]) => m.ine_varcd !== null).length;
    expect(ine.stdout).toMatch(
      new RegExp(
        '^1 requests to http://munidata-sync\\.invalid; stopped: .*cannot reach .*; ' +
          `${indicators - 1} indicators not tried`,
      ),
    );
    const base = await munidata(db, ['sync', 'base'], env);
    expect(base.code, base.stderr).toBe(1);
    expect(base.seconds).toBeLessThan(15);
    expect(base.stdout).toMatch(
      new RegExp(`stopped: .*cannot reach 127\\.0\\.0\\.1:${port}: the connection was refused`),
    );
  }, 60_000);

  it('refuses each bad redirect URI of oauth clients create with its own reason, exit 2', async () => {
    const db = freshDb();
    for (const [uri, reason] of [
      ['http://example.com/cb', /plain http on example\.com: use https, or http only on a loopback address/],
      ['https://example.com/cb#done', /has a fragment/],
      ['/cb', /is not an absolute URI/],
      ['com.example.app:/cb', /uses the com\.example\.app scheme/],
    ] as const) {
      const r = await munidata(db, ['oauth', 'clients', 'create', '--name', 'App', '--redirect-uri', uri]);
      expect(r.code, uri).toBe(2);
      expect(r.stderr, uri).toContain(`The client is not valid: redirect_uris: ${JSON.stringify(uri)}`);
      expect(r.stderr, uri).toMatch(reason);
      expect(r.stderr, uri).not.toMatch(/did not match/);
    }
    const ok = await munidata(db, [
      'oauth',
      'clients',
      'create',
      '--name',
      'App',
      '--redirect-uri',
      'http://[::1]:4000/cb',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
  }, 60_000);
});
