/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance` 0.1.16, server mode, active suite) against the
 * MCP channel listening on a loopback port. The suite needs Node ≥ 22: it runs through
 * `npx -y -p node@22 -p @modelcontextprotocol/conformance@0.1.16 -- conformance server …` (the `node` package of
 * the npm registry brings a Node 22 binary), so the machine needs only the npm registry.
 *
 * The suite's client sends no credential, so it talks to a loopback proxy that adds the API key. Expected failures
 * are listed, each with its reason, in mcp-conformance-baseline.yml: any other failure, and any listed scenario that
 * passes, fails this test.
 */

import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authProxy, CONFORMANCE, listen, NODE_22, npx, unlimitedKey } from './helpers/mcp-tools.js';
import { testDir } from './helpers/temp-dir.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const BASELINE = fileURLToPath(new URL('./mcp-conformance-baseline.yml', import.meta.url));
/** The generic protocol scenarios every tools server must pass (they are not in the baseline). */
const MUST_PASS = ['server-initialize', 'ping', 'tools-list'];

let t: TestApp;
let proxy: Awaited<ReturnType<typeof authProxy>>;
let outDir: string;
beforeAll(async () => {
  t = await startTestApp();
  proxy = await authProxy(await listen(t), await unlimitedKey(t, 'conformance'));
  outDir = testDir('munidata-conformance-');
});
afterAll(async () => {
  await proxy?.close();
  await t?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

it('passes the MCP conformance suite but for the baseline of a stateless, tools-only server', async () => {
  const run = await npx(
    [NODE_22, CONFORMANCE],
    'conformance',
    ['server', '--url', proxy.url, '--expected-failures', BASELINE, '-o', outDir],
    // the first run downloads Node 22 and the suite into the npx cache
    400_000,
  );
  const report = `exit ${run.code}\n${run.stdout.slice(-8000)}\n${run.stderr.slice(-4000)}`;
  expect(run.code, report).toBe(0);
  expect(run.stdout, report).toContain('Baseline check passed');

  // Each generic scenario ran and every one of its checks succeeded.
  const checksOf = (scenario: string) => {
    const dir = readdirSync(outDir).find((name) => name.startsWith(`server-${scenario}-`));
    expect(dir, `${scenario} did not run\n${report}`).toBeDefined();
    return JSON.parse(readFileSync(join(outDir, dir as string, 'checks.json'), 'utf8')) as { id: string; status: string }[];
  };
  for (const scenario of MUST_PASS) {
    const checks = checksOf(scenario);
    expect(checks.length, scenario).toBeGreaterThan(0);
    expect(checks.map((c) => `${c.id}: ${c.status}`)).toEqual(checks.map((c) => `${c.id}: SUCCESS`));
  }
  // The first check of the DNS-rebinding scenario (a foreign Host/Origin is refused) passes; see the baseline.
  expect(checksOf('dns-rebinding-protection').find((c) => c.id === 'localhost-host-rebinding-rejected')?.status).toBe('SUCCESS');
}, 500_000);
