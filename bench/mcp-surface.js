/**
 * What MCP costs an agent before it reads anything, and what one read costs the server: the size of `tools/list`,
 * `resources/templates/list` and `prompts/list` for a key of a plan with every data domain (bytes of the JSON-RPC
 * response, and tokens estimated as bytes / 4), each against its budget; and the latency of `resources/read` of a
 * municipality over one connection (p50, p99), against its target. docs/performance.md, MCP surface.
 *
 *   npm run build && node bench/mcp-surface.js
 *
 * A report, not a test: it exits 0 on a MISS (and says MISS); it exits 1 only when the server answered something
 * other than a successful result. Environment: BENCH_DURATION (seconds of reads, default 8).
 */

import { request as httpRequest } from 'node:http';
import autocannon from 'autocannon';
import { fmt, machineLine, positiveNumber, prepareDatabase, startChild, stopAllChildren, table } from './lib.js';

/**
 * Estimated tokens each list may cost an agent's context (docs/mcp.md, Size of the lists): tools/list at its size
 * when the budget was set (it must not grow), the others small by design.
 */
const BUDGET_TOKENS = { 'tools/list': 50_000, 'resources/templates/list': 1_000, 'prompts/list': 1_000 };
const READ_P50_TARGET_MS = 2;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION', 8);
const MUNICIPALITY = 'munidata://municipalities/1106';

main().then(
  (code) => {
    stopAllChildren();
    process.exitCode = code;
  },
  (error) => {
    stopAllChildren();
    console.error(error);
    process.exitCode = 1;
  },
);

async function main() {
  console.log(machineLine());
  const { dbPath } = await prepareDatabase();
  const secret = await premiumKey(dbPath);
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    authorization: `Bearer ${secret}`,
  };
  const server = await startChild('server-full.js', [dbPath], []);
  const rows = [];
  let missed = false;
  for (const [method, budget] of Object.entries(BUDGET_TOKENS)) {
    const answer = await post(server.port, headers, rpc(method, {}));
    if (answer.status !== 200 || answer.json?.result === undefined) {
      console.error(`FAILED: ${method} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      return 1;
    }
    const bytes = Buffer.byteLength(answer.text);
    const tokens = Math.ceil(bytes / 4);
    const entries = Object.values(answer.json.result).find(Array.isArray)?.length ?? 0;
    missed ||= tokens > budget;
    rows.push([method, fmt(entries), fmt(bytes), fmt(tokens), fmt(budget), tokens <= budget ? 'met' : 'MISS']);
  }
  console.log(table(['list (premium key)', 'entries', 'bytes', '≈ tokens', 'budget', ''], rows));

  const body = rpc('resources/read', { uri: MUNICIPALITY });
  const first = await post(server.port, headers, body);
  if (first.status !== 200 || first.json?.result?.contents?.[0]?.uri !== MUNICIPALITY) {
    console.error(`FAILED: resources/read answered ${first.status}: ${first.text.slice(0, 300)}`);
    return 1;
  }
  const run = await autocannon({
    url: `http://127.0.0.1:${server.port}/mcp`,
    method: 'POST',
    headers,
    body,
    connections: 1,
    duration: DURATION_SECONDS,
  });
  if (run.non2xx > 0 || run.errors > 0) {
    console.error(`FAILED: ${run.non2xx} answers other than 2xx, ${run.errors} errors`);
    return 1;
  }
  const p50 = run.latency.p50;
  missed ||= p50 >= READ_P50_TARGET_MS;
  console.log(
    table(
      ['resources/read of a municipality, 1 connection', 'reads', 'req/s', 'p50 ms', 'p99 ms', 'target'],
      [
        [
          MUNICIPALITY,
          fmt(run.requests.total),
          fmt(run.requests.average),
          String(p50),
          String(run.latency.p99),
          `p50 < ${READ_P50_TARGET_MS} ms: ${p50 < READ_P50_TARGET_MS ? 'met' : 'MISS'}`,
        ],
      ],
    ),
  );
  console.log(missed ? 'MISS: see the rows above.' : 'Every budget and target met.');
  return 0;
}

/** A key on a plan with every data domain (as premium), its limits out of the way. */
async function premiumKey(dbPath) {
  const { openSqliteStore } = await import('../dist/store/sqlite/sqlite-store.js');
  const { savePlan } = await import('../dist/admin/plans.js');
  const { createAccount } = await import('../dist/admin/accounts.js');
  const { createKey } = await import('../dist/admin/keys.js');
  const { DOMAIN_NAMES } = await import('../dist/lib/domains.js');
  const store = openSqliteStore(dbPath);
  try {
    const now = new Date();
    const plan = {
      name: 'Bench premium',
      api_access: true,
      domains: [...DOMAIN_NAMES],
      raw_values: true,
      requests_per_minute: 1e9,
      requests_per_month: 1e12,
    };
    await savePlan(store, 'bench_premium', plan, 'create');
    const account = await createAccount(store, { name: 'bench premium', plan: 'bench_premium' }, now);
    return (await createKey(store, { accountId: account.id, label: 'bench premium' }, now)).secret;
  } finally {
    await store.close();
  }
}

function rpc(method, params) {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

function post(port, headers, body) {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
