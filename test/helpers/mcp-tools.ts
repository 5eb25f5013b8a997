/**
 * For the tests that drive the MCP channel with outside tools (the conformance suite, the Inspector CLI):
 * the app listening on a loopback port, a key on a plan that never rate-limits a test run, a credential-adding
 * proxy for tools that cannot send headers, and `npx` runs of pinned tool versions under Node 22.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKey } from '../../src/admin/keys.js';
import { savePlan } from '../../src/admin/plans.js';
import { DOMAIN_NAMES } from '../../src/lib/domains.js';
import type { TestApp } from './test-app.js';

/** The conformance suite and Inspector 2.x need Node ≥ 22; `npx -p node@22` runs them on a Node 22 from npm. */
export const NODE_22 = 'node@22';
export const CONFORMANCE = '@modelcontextprotocol/conformance@0.2.0-alpha.12';
export const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

/** Listens on 127.0.0.1, port 0; returns the MCP endpoint URL. */
export async function listen(t: TestApp): Promise<string> {
  await t.app.http.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.http.server.address() as AddressInfo).port}/mcp`;
}

/** A key of a premium-like plan (every domain) whose limits a test run never reaches. */
export async function unlimitedKey(t: Pick<TestApp, 'store' | 'clock'>, code: string): Promise<string> {
  await savePlan(
    t.store,
    code,
    {
      api_access: true,
      domains: [...DOMAIN_NAMES],
      raw_values: true,
      requests_per_minute: 1_000_000,
      requests_per_month: 1_000_000_000,
    },
    'create',
  );
  const now = new Date(t.clock.now);
  const account = await t.store.createAccount({ name: code, plan_code: code, beta: false, now: now.toISOString() });
  return (await createKey(t.store, { accountId: account.id }, now)).secret;
}

/**
 * A loopback proxy to `target` that adds `Authorization: Bearer <key>` to every request and passes everything
 * else (method, path, headers including Host and Origin, body, answer) through unchanged.
 */
export async function authProxy(target: string, key: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${key}` },
      },
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npx -y -p <package>… -- <command> <args>`, asynchronously (the app under test runs in this process and must
 * keep answering). Fails after `timeoutMs`.
 */
export function npx(
  packages: readonly string[],
  command: string,
  args: readonly string[],
  timeoutMs: number,
  /** Told of each chunk the command prints, as it prints it (a command that waits for a browser prints its URL). */
  onStdout?: (chunk: string) => void,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['-y', ...packages.flatMap((p) => ['-p', p]), '--', command, ...args], {
      env: {
        ...process.env,
        npm_config_yes: 'true',
        npm_config_update_notifier: 'false',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      onStdout?.(String(chunk));
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npx ${command} did not finish in ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
