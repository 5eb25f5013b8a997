/**
 * The company-agent host on a copy of the demo store: the two demo deployments published, credentials of every
 * kind for each, the app listening on a loopback port, and real SDK clients (A2A and MCP) pointed at it.
 */
import type { AddressInfo } from 'node:net';
import { AgentCard, SendMessageRequest } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createCredential } from '../../src/agents/admin.js';
import { DEMO_DEPLOYMENTS, ensureDemoAgents } from '../../src/agents/demo/demo-agents.js';
import type { AgentHostOptions } from '../../src/agents/host.js';
import { type App, createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Store } from '../../src/store/store.js';
import { a2aClientAt, fetchVia } from './a2a-client.js';
import { storeEnv } from './backend.js';
import { BASE_URL, copyDemoStore } from './test-app.js';

export const AGENTS_URL = `${BASE_URL}/agents`;
export const SLUGS = DEMO_DEPLOYMENTS.map((d) => d.slug);

export interface AgentCredentials {
  a2a: string;
  mcp: string;
  licensedA2a: string;
  licensedMcp: string;
}

export interface AgentHostApp {
  app: App;
  store: Store;
  dbPath: string;
  address: string;
  clock: { now: number; advance(ms: number): void };
  credentials: Record<string, AgentCredentials>;
  close(): Promise<void>;
}

export async function startAgentHost(
  options: {
    store?: Store;
    dbPath?: string;
    agents?: AgentHostOptions;
    credentials?: Record<string, AgentCredentials>;
  } = {},
): Promise<AgentHostApp> {
  const { store, dbPath } = options.store ? { store: options.store, dbPath: options.dbPath ?? '' } : copyDemoStore();
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const now = new Date(clock.now);
  await ensureDemoAgents(store, now);
  const credentials: Record<string, AgentCredentials> = options.credentials ?? {};
  if (!options.credentials) {
    for (const slug of SLUGS) {
      const make = async (channel: 'a2a' | 'mcp', licensed = false) =>
        (await createCredential(store, { slug, channel, licensed }, now)).secret;
      credentials[slug] = {
        a2a: await make('a2a'),
        mcp: await make('mcp'),
        licensedA2a: await make('a2a', true),
        licensedMcp: await make('mcp', true),
      };
    }
  }
  const config = loadConfig({ BASE_URL, ...storeEnv(dbPath), LOG_LEVEL: 'silent' });
  const app = await createApp({ config, store, clock: () => clock.now, agents: options.agents });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = `http://127.0.0.1:${(app.http.server.address() as AddressInfo).port}`;
  return {
    app,
    store,
    dbPath,
    address,
    clock,
    credentials,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** The cards name `BASE_URL`; the test server listens elsewhere: send every request of the SDK there. */
export function localFetch(host: AgentHostApp): typeof fetch {
  return fetchVia(host.address);
}

export async function a2aClient(host: AgentHostApp, slug: string): Promise<Client> {
  // With the trailing slash the SDK resolves `.well-known/agent-card.json` under the deployment.
  return a2aClientAt(`${AGENTS_URL}/${slug}/`, localFetch(host));
}

export const bearer = (secret: string) => ({ serviceParameters: { Authorization: `Bearer ${secret}` } });

export function skillRequest(skill: string, input: Record<string, unknown>, configuration?: Record<string, unknown>) {
  return SendMessageRequest.fromJSON({
    message: {
      messageId: crypto.randomUUID(),
      role: 'ROLE_USER',
      parts: [{ data: { skill, input }, mediaType: 'application/json' }],
    },
    ...(configuration ? { configuration } : {}),
  });
}

export async function mcpClient(host: AgentHostApp, slug: string, secret: string): Promise<McpClient> {
  const client = new McpClient({ name: 'agents-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${host.address}/agents/${slug}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    }),
  );
  return client;
}

export function cardJson(card: AgentCard): any {
  return AgentCard.toJSON(card);
}
