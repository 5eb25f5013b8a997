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

import {
  fmt,
  load,
  machineLine,
  positiveNumber,
  prepareDatabase,
  requestJson,
  runBench,
  startChild,
  table,
} from './lib.js';

/**
 * Estimated tokens each list may cost an agent's context (docs/mcp.md, Size of the lists): tools/list at its size
 * when the budget was set (it must not grow), the others small by design.
 */
const BUDGET_TOKENS = { 'tools/list': 50_000, 'resources/templates/list': 1_000, 'prompts/list': 1_000 };
const READ_P50_TARGET_MS = 2;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION', 8);
const MUNICIPALITY = 'munidata://municipalities/1106';

runBench(main);

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
    const answer = await requestJson(server.port, 'POST', '/mcp', headers, rpc(method, {}));
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
  const first = await requestJson(server.port, 'POST', '/mcp', headers, body);
  if (first.status !== 200 || first.json?.result?.contents?.[0]?.uri !== MUNICIPALITY) {
    console.error(`FAILED: resources/read answered ${first.status}: ${first.text.slice(0, 300)}`);
    return 1;
  }
  const run = await load(server.port, {
    path: '/mcp',
    method: 'POST',
    headers,
    body,
    connections: 1,
    seconds: DURATION_SECONDS,
  });
  if (run.non2xx > 0 || run.errors > 0) {
    console.error(`FAILED: ${run.non2xx} answers other than 2xx, ${run.errors} errors`);
    return 1;
  }
  const p50 = run.p50;
  missed ||= p50 >= READ_P50_TARGET_MS;
  console.log(
    table(
      ['resources/read of a municipality, 1 connection', 'reads', 'req/s', 'p50 ms', 'p99 ms', 'target'],
      [
        [
          MUNICIPALITY,
          fmt(run.total),
          fmt(run.rps),
          String(p50),
          String(run.p99),
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
