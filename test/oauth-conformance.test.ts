/**
 * The MCP conformance suite's authorization-server scenarios (`@modelcontextprotocol/conformance` 0.2.0-alpha.12,
 * `conformance authorization`) against our issuer: the metadata endpoint, and the authorization code grant, for
 * which the suite prints an authorization URL and waits for its callback — here Chromium opens it, the account
 * owner signs in and allows, as a person would. The suite's client is pre-registered as an operator would
 * (`munidata oauth clients create`) with the suite's loopback redirect. Baseline: no scenario is left out
 * (test/oauth-conformance-baseline.yml says so, and why each would be).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createClient } from '../src/oauth/clients.js';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { CONFORMANCE, NODE_22, npx } from './helpers/mcp-tools.js';
import { freePort } from './helpers/redis.js';
import { testDir } from './helpers/temp-dir.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const SCENARIOS = ['authorization-server-metadata-endpoint', 'authorization-code-grant'];

let t: TestApp;
let base: string;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ baseUrl: base });
  await t.app.http.listen({ host: '127.0.0.1', port });
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the conformance suite’s authorization-server scenarios', () => {
  it('pass against our issuer, a person consenting in the browser', async () => {
    const baseline = parse(
      readFileSync(fileURLToPath(new URL('./oauth-conformance-baseline.yml', import.meta.url)), 'utf8'),
    ) as {
      authorization: string[] | null;
    };
    const excused = new Set(baseline.authorization ?? []);
    const owner = await consoleUser(t, {
      accountId: t.accounts.premium,
      email: 'conformance@oauth.example',
      role: 'owner',
    });
    const callbackPort = await freePort();
    const client = await createClient(t.app.oauth, {
      name: 'MCP conformance suite',
      redirectUris: [`http://127.0.0.1:${callbackPort}/callback`],
    });
    const outDir = testDir('munidata-oauth-conformance-');
    let printed = '';
    let landed = '';
    let consenting: Promise<void> | undefined;
    const consent = async (url: string) => {
      const page = await browser.newPage();
      await page.goto(url);
      await page.fill('input[name="email"]', owner.email);
      await page.fill('input[name="password"]', owner.password);
      await Promise.all([page.waitForURL(/\/console\/connect\//), page.click('button[type="submit"]')]);
      await Promise.all([page.waitForURL((u) => u.port === String(callbackPort)), page.click('button[value="allow"]')]);
      landed = page.url();
      await page.close();
    };
    const run = await npx(
      [NODE_22, CONFORMANCE],
      'conformance',
      [
        'authorization',
        '--url',
        base,
        '--client-id',
        client.clientId,
        '--resource',
        `${base}/mcp`,
        '-p',
        String(callbackPort),
        '-o',
        outDir,
      ],
      400_000,
      (chunk) => {
        printed += chunk;
        const url = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(printed)?.[1];
        if (url && !consenting) consenting = consent(url);
      },
    );
    await consenting;
    const report = `landed on ${landed}\nexit ${run.code}\n${run.stdout.slice(-6000)}\n${run.stderr.slice(-3000)}`;
    expect(consenting, report).toBeDefined();
    for (const scenario of SCENARIOS) {
      const dir = readdirSync(outDir).find((name) => name.includes(scenario));
      expect(dir, `${scenario} did not run\n${report}`).toBeDefined();
      const checks = JSON.parse(readFileSync(join(outDir, dir as string, 'checks.json'), 'utf8')) as {
        id: string;
        status: string;
        errorMessage?: string;
      }[];
      const failed = checks.filter(
        (c) => !['SUCCESS', 'INFO'].includes(c.status) && !excused.has(`${scenario}:${c.id}`),
      );
      expect(
        failed.map((c) => `${scenario} ${c.id}: ${c.status} ${c.errorMessage ?? ''}`),
        report,
      ).toEqual([]);
      expect(checks.some((c) => c.status === 'SUCCESS')).toBe(true);
    }
  }, 500_000);
});
