#!/usr/bin/env node
/**
 * `npm run tck`: the A2A Technology Compatibility Kit (a2aproject/a2a-tck, branch `1.0-dev`, Python) against a
 * started service — the data agent at `/a2a` and one company agent — over JSON-RPC, then the results against
 * `test/a2a-tck-baseline.yml`, which names every test that fails by our contract or by the kit's own fault, with
 * the reason (docs/a2a.md, "The TCK", lists the same). The kit is on no registry, so CI cannot have it: this runs
 * only where `TCK_DIR` names a checkout of it, never from `npm test`.
 *
 *   TCK_DIR=/path/to/a2a-tck npm run tck
 *
 * Environment:
 *   TCK_DIR      the checkout (required): its `tests/compatibility/` is run with pytest
 * TCK_PYTHON   the Python that has the kit's dependencies (pytest ≥ 8, pytest-asyncio, httpx, grpcio, protobuf ≥ 6.30,
 * googleapis-common-protos, jsonschema); default `$TCK_DIR/.venv/bin/python` when it exists, else `python3`
 *   TCK_AGENT    the company agent's slug (default `sol-do-norte`, a demo deployment)
 *   TCK_KEEP     a folder to keep the JUnit reports in (default: a temporary one, removed)
 *
 * How: the service (`dist/app.js`, built by `npm run tck`) on a fresh SQLite store in a temporary folder, with the
 * demo dataset and the demo company agents, behind a loopback proxy that is the service's BASE_URL, so the cards
 * name the proxy. The kit sends no credential and fetches the card without `A2A-Version` (it would read the
 * 0.3 card): the proxy adds the key (the data key on `/a2a`, the agent's A2A credential under `/agents/<slug>/`) and,
 * on card requests only, `A2A-Version: 1.0`. Everything else passes through unchanged.
 *
 * Exit code: 0 when every failure is in the baseline and every baseline entry still fails; 1 otherwise; 2 when the
 * kit could not run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BASELINE = join(ROOT, 'test', 'a2a-tck-baseline.yml');
const CARD_PATH = '/.well-known/agent-card.json';

const tckDir = process.env.TCK_DIR;
if (!tckDir || !existsSync(join(tckDir, 'tests', 'compatibility'))) {
  process.stderr.write(
    'TCK_DIR must name a checkout of https://github.com/a2aproject/a2a-tck (branch 1.0-dev), ' +
      'with its Python dependencies.\n' +
      'See docs/a2a.md, "The TCK".\n',
  );
  process.exit(2);
}
const python =
  process.env.TCK_PYTHON ??
  (existsSync(join(tckDir, '.venv', 'bin', 'python')) ? join(tckDir, '.venv', 'bin', 'python') : 'python3');
const agentSlug = process.env.TCK_AGENT ?? 'sol-do-norte';
const work = mkdtempSync(join(tmpdir(), 'munidata-tck-'));
const reports = process.env.TCK_KEEP ? resolve(process.env.TCK_KEEP) : join(work, 'reports');
mkdirSync(reports, { recursive: true });

let service;
let proxy;
try {
  proxy = await startProxy();
  service = await startService(proxy.port);
  proxy.route(service.port, service.credentials);
  const baseline = readBaseline();
  const runs = [
    { target: 'data agent', sutHost: proxy.url },
    { target: 'company agent', sutHost: `${proxy.url}/agents/${agentSlug}` },
  ];
  let ok = true;
  for (const run of runs) {
    const results = await runKit(run);
    ok = report(run.target, results, baseline[run.target] ?? {}) && ok;
  }
  process.exitCode = ok ? 0 : 1;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
} finally {
  await proxy?.close();
  await service?.close();
  rmSync(work, { recursive: true, force: true });
}

/** The loopback proxy: listens first (its address is the service's BASE_URL), routes once the service is up. */
async function startProxy() {
  let upstream;
  let credentials;
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    const agent = /^\/agents\/([^/]+)\//.exec(req.url ?? '');
    const secret = agent ? credentials.agents[agent[1]] : credentials.dataKey;
    if (secret) headers.authorization = `Bearer ${secret}`;
    if ((req.url ?? '').split('?')[0].endsWith(CARD_PATH) && headers['a2a-version'] === undefined)
      headers['a2a-version'] = '1.0';
    const forward = httpRequest(
      { host: '127.0.0.1', port: upstream, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    route(servicePort, issued) {
      upstream = servicePort;
      credentials = issued;
    },
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/**
 * The service on a fresh SQLite store: migrated, the demo dataset, a key on a plan of every domain, the demo
 * company agents and an A2A credential of `agentSlug`; listening on a loopback port. The per-minute limits are
 * lifted: the kit sends more requests a minute than a company agent's credential may (60, docs/agents.md; tested
 * in our own suite), and a 429 would fail tests that have nothing to do with limits.
 */
async function startService(proxyPort) {
  const dist = (module) => import(join(ROOT, 'dist', module));
  const { loadConfig } = await dist('config.js');
  const { openStore } = await dist('store/open-store.js');
  const { migrate } = await dist('admin/migrate.js');
  const { loadDemo } = await dist('demo/load-demo.js');
  const { savePlan } = await dist('admin/plans.js');
  const { createKey } = await dist('admin/keys.js');
  const { DOMAIN_NAMES } = await dist('lib/domains.js');
  const { ensureDemoAgents } = await dist('agents/demo/demo-agents.js');
  const { createCredential } = await dist('agents/admin.js');
  const { createApp } = await dist('app.js');

  const config = loadConfig({
    MUNIDATA_DB: join(work, 'tck.db'),
    BASE_URL: `http://127.0.0.1:${proxyPort}`,
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'silent',
  });
  const store = openStore(config);
  const now = new Date();
  process.stdout.write('Loading the demo dataset into a fresh store… ');
  await migrate(store);
  await loadDemo(store, { today: now });
  process.stdout.write('done\n');
  const unlimited = {
    api_access: true,
    domains: [...DOMAIN_NAMES],
    raw_values: true,
    requests_per_minute: 1_000_000,
    requests_per_month: 1_000_000_000,
  };
  await savePlan(store, 'tck', unlimited, 'create');
  const account = await store.createAccount({ name: 'TCK', plan_code: 'tck', beta: false, now: now.toISOString() });
  const dataKey = (await createKey(store, { accountId: account.id }, now)).secret;
  await ensureDemoAgents(store, now);
  const agentCredential = (await createCredential(store, { slug: agentSlug, channel: 'a2a' }, now)).secret;
  const app = await createApp({
    config,
    store,
    agents: { limits: { perCredential: 1_000_000, perDeployment: 1_000_000 } },
  });
  await app.http.listen({ host: '127.0.0.1', port: 0 });
  return {
    port: app.http.server.address().port,
    credentials: { dataKey, agents: { [agentSlug]: agentCredential } },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** `{target: {test id: reason}}` from the baseline file. */
function readBaseline() {
  const file = parse(readFileSync(BASELINE, 'utf8'));
  return Object.fromEntries(
    Object.entries(file).map(([target, entries]) => [
      target,
      Object.fromEntries((entries ?? []).map((e) => [e.test, e.reason])),
    ]),
  );
}

/**
 * Runs the kit's compatibility tests over JSON-RPC; resolves with `{test id: 'passed' | 'failed' | 'skipped' |
 * 'xfailed' | …}`.
 */
async function runKit({ target, sutHost }) {
  const junit = join(reports, `${target.replace(' ', '-')}.xml`);
  const args = [
    '-m',
    'pytest',
    'tests/compatibility/',
    `--sut-host=${sutHost}`,
    '--transport=jsonrpc',
    '-p',
    'no:cacheprovider',
  ];
  args.push('-q', '-rfE', '--tb=line', `--junitxml=${junit}`);
  process.stdout.write(`\n=== ${target}: ${sutHost} ===\n`);
  const code = await new Promise((done) => {
    const child = spawn(python, args, { cwd: tckDir, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', () => done(-1));
    child.on('exit', (exitCode) => done(exitCode));
  });
  if (code === -1 || !existsSync(junit))
    throw new Error(`the kit did not run (${python}; exit ${code}): is TCK_PYTHON set?`);
  return junitResults(readFileSync(junit, 'utf8'));
}

/** Test outcomes from a JUnit XML report (pytest's): `file::Class::test[param]` → outcome. */
function junitResults(xml) {
  const results = {};
  for (const match of xml.matchAll(/<testcase ([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
    const body = match[3] ?? '';
    const id = `${attrs.classname}::${decode(attrs.name)}`;
    let outcome = 'passed';
    if (/<failure/.test(body)) outcome = 'failed';
    else if (/<error/.test(body)) outcome = 'error';
    else if (/<skipped[^>]*type="pytest.xfail"/.test(body)) outcome = 'xfailed';
    else if (/<skipped/.test(body)) outcome = 'skipped';
    results[id] = outcome;
  }
  return results;
}

function decode(text) {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}

/** Prints the comparison with the baseline; true when it holds (no unexpected failure, no stale entry). */
function report(target, results, expected) {
  const failed = Object.keys(results).filter((id) => results[id] === 'failed' || results[id] === 'error');
  const count = (outcome) => Object.values(results).filter((o) => o === outcome).length;
  const unexpected = failed.filter((id) => !(id in expected));
  const stale = Object.keys(expected).filter((id) => results[id] !== 'failed' && results[id] !== 'error');
  process.stdout.write(
    `\n${target}: ${count('passed')} passed, ` +
      `${failed.length} failed (${failed.length - unexpected.length} in the baseline), ` +
      `${count('xfailed')} xfailed (SHOULD), ${count('skipped')} skipped\n`,
  );
  for (const id of failed.filter((f) => f in expected)) process.stdout.write(`  ~ ${id}\n      ${expected[id]}\n`);
  for (const id of unexpected) process.stdout.write(`  ✗ UNEXPECTED ${id}\n`);
  for (const id of stale) process.stdout.write(`  ✓ STALE (now ${results[id] ?? 'not run'}) ${id}\n`);
  return unexpected.length === 0 && stale.length === 0;
}
