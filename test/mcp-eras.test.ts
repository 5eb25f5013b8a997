/**
 * Real MCP clients of every era on the data service's `/mcp` and on a company agent's MCP endpoint, all on the
 * same running app: the TypeScript SDK 1.x client (`@modelcontextprotocol/sdk`, 2025-11-25 after `initialize`)
 * and the 2.x client (`@modelcontextprotocol/client`, which runs on Node 20) in its three modes — `legacy` (its
 * default: `initialize`, as a 2025 client), `auto` (probes `server/discover` and stays in the 2026-07-28 era when
 * the server speaks it) and pinned to 2026-07-28 (no fallback: it fails unless the server speaks the revision).
 * Each lists the tools and calls three of them, and the answers are the REST endpoint's JSON (the data service),
 * or the same skill's answer on A2A and the REST figures it cites (the company agent).
 */
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHostApp, SLUGS, startAgentHost } from './helpers/agents.js';
import { unlimitedKey } from './helpers/mcp-tools.js';

let host: AgentHostApp;
let dataKey: string;
beforeAll(async () => {
  host = await startAgentHost();
  dataKey = await unlimitedKey(host, 'eras');
});
afterAll(() => host.close());

interface Exchange {
  httpMethod: string;
  rpcMethod: string | undefined;
  status: number;
  version: string | null;
  mcpMethod: string | null;
  mcpName: string | null;
}

interface ToolResult {
  structuredContent?: unknown;
  isError?: boolean;
  content: unknown[];
}

/** One connected client, whatever its SDK: what it negotiated, its tools, its calls, and every HTTP exchange. */
interface Connected {
  readonly version: string | undefined;
  readonly serverName: string | undefined;
  readonly exchanges: Exchange[];
  toolNames(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

const PINNED = '2026-07-28';
const KINDS = ['sdk 1.x', 'sdk 2.x legacy', 'sdk 2.x auto', `sdk 2.x pinned ${PINNED}`] as const;
type Kind = (typeof KINDS)[number];

function recordingFetch(exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const sent = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    exchanges.push({
      httpMethod: init?.method ?? 'GET',
      rpcMethod: body?.method,
      status: response.status,
      version: sent.get('mcp-protocol-version'),
      mcpMethod: sent.get('mcp-method'),
      mcpName: sent.get('mcp-name'),
    });
    return response;
  };
}

async function connect(kind: Kind, url: string, secret: string): Promise<Connected> {
  const exchanges: Exchange[] = [];
  const requestInit = { headers: { Authorization: `Bearer ${secret}` } };
  const fetchImpl = recordingFetch(exchanges);
  if (kind === 'sdk 1.x') {
    const client = new Client1({ name: 'eras-test', version: '1.0.0' });
    const transport = new Transport1(new URL(url), { requestInit, fetch: fetchImpl });
    await client.connect(transport);
    return {
      version: transport.protocolVersion,
      serverName: client.getServerVersion()?.name,
      exchanges,
      toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close(),
    };
  }
  const mode = kind === 'sdk 2.x legacy' ? 'legacy' : kind === 'sdk 2.x auto' ? 'auto' : { pin: PINNED };
  const client = new Client2({ name: 'eras-test', version: '2.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new Transport2(new URL(url), { requestInit, fetch: fetchImpl }));
  return {
    version: client.getNegotiatedProtocolVersion(),
    serverName: client.getServerVersion()?.name,
    exchanges,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
    close: () => client.close(),
  };
}

/** What each kind of client must have negotiated, and how it opened. */
function expectOpening(kind: Kind, connected: Connected): void {
  const posts = connected.exchanges.filter((e) => e.httpMethod === 'POST');
  if (kind === 'sdk 1.x' || kind === 'sdk 2.x legacy') {
    expect(connected.version).toBe('2025-11-25');
    expect(posts[0]).toMatchObject({ rpcMethod: 'initialize', status: 200 });
    expect(posts.some((e) => e.rpcMethod === 'server/discover')).toBe(false);
  } else {
    // No fallback: the probe was answered in the 2026-07-28 era, and no initialize, no GET followed.
    expect(connected.version).toBe(PINNED);
    expect(posts[0]).toMatchObject({
      rpcMethod: 'server/discover',
      status: 200,
      version: PINNED,
      mcpMethod: 'server/discover',
    });
    expect(connected.exchanges.some((e) => e.rpcMethod === 'initialize' || e.httpMethod === 'GET')).toBe(false);
  }
}

/** Every request after the opening went out in the negotiated era and came back 200; 2026 calls named their tool. */
function expectCalls(kind: Kind, connected: Connected, calls: number): void {
  const toolCalls = connected.exchanges.filter((e) => e.rpcMethod === 'tools/call');
  expect(toolCalls).toHaveLength(calls);
  for (const exchange of connected.exchanges.filter((e) => e.rpcMethod?.startsWith('tools/'))) {
    expect(exchange.status).toBe(200);
    expect(exchange.version).toBe(connected.version);
    if (kind.startsWith('sdk 2.x') && connected.version === PINNED) expect(exchange.mcpMethod).toBe(exchange.rpcMethod);
  }
  if (connected.version === PINNED) expect(toolCalls.every((e) => e.mcpName !== null)).toBe(true);
}

async function rest(path: string): Promise<unknown> {
  const res = await fetch(`${host.address}${path}`, { headers: { Authorization: `Bearer ${dataKey}` } });
  expect(res.status, path).toBe(200);
  const json = await res.json();
  return Array.isArray(json) ? { items: json } : json;
}

function answerOf(result: ToolResult): any {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  return result.structuredContent;
}

describe.each(KINDS)('%s', (kind) => {
  it('on /mcp: lists every tool and answers three of them with the REST JSON', async () => {
    host.clock.advance(61_000);
    const client = await connect(kind, `${host.address}/mcp`, dataKey);
    try {
      expectOpening(kind, client);
      expect(client.serverName).toBe('munidata');
      expect(await client.toolNames()).toEqual(host.app.registry.all.map((op) => op.name));
      expect(answerOf(await client.call('indicators_stats', { key: 'population' }))).toEqual(
        await rest('/v1/indicators/population/stats'),
      );
      expect(answerOf(await client.call('municipalities_get', { code: 'lisboa' }))).toEqual(
        await rest('/v1/municipalities/lisboa'),
      );
      expect(answerOf(await client.call('municipalities_indicators', { code: '1106' }))).toEqual(
        await rest('/v1/municipalities/1106/indicators'),
      );
      expectCalls(kind, client, 3);
    } finally {
      await client.close();
    }
  });

  const companyAgentTools =
    'on a company agent: lists its tools and answers three of them as its A2A skills do, ' +
    'with the REST figures it cites';
  it(companyAgentTools, async () => {
    host.clock.advance(61_000);
    const slug = SLUGS[0];
    const client = await connect(kind, `${host.address}/agents/${slug}/mcp`, host.credentials[slug].mcp);
    try {
      expectOpening(kind, client);
      expect(client.serverName).toBe(slug);
      expect(await client.toolNames()).toEqual([
        'check_service_area',
        'search_knowledge',
        'procurement_research_buyer',
        'procurement_compare_contractsers',
        'procurement_track_opportunities',
      ]);
      const area = answerOf(await client.call('check_service_area', { municipality: 'Braga' }));
      expect(area).toEqual(await a2aAnswer(slug, 'check_service_area', { municipality: 'Braga' }));
      const knowledge = answerOf(await client.call('search_knowledge', { q: 'solar' }));
      expect(knowledge).toEqual(await a2aAnswer(slug, 'search_knowledge', { q: 'solar' }));
      const buyer = answerOf(
        await client.call('procurement_research_buyer', { buyer: '500051070', from: '2020-01-01' }),
      );
      const cited = new URL(buyer.buyer.all_time.citation.rest);
      expect(cited.pathname).toBe('/v1/procurement/entities/500051070');
      const profile = (await rest(cited.pathname)) as any;
      expect(buyer.buyer.all_time).toMatchObject({
        contracts: profile.contracts_as_buyer,
        total_eur: profile.total_as_buyer_eur,
      });
      expect(buyer.buyer.all_time.contracts).toBeGreaterThan(0);
      expectCalls(kind, client, 3);
    } finally {
      await client.close();
    }
  });
});

/** A skill's data part answered on the deployment's A2A endpoint (a message: these skills answer at once). */
async function a2aAnswer(slug: string, skill: string, input: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${host.address}/agents/${slug}/a2a`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${host.credentials[slug].a2a}`,
      'A2A-Version': '1.0',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: {
        message: {
          messageId: crypto.randomUUID(),
          role: 'ROLE_USER',
          parts: [{ data: { skill, input }, mediaType: 'application/json' }],
        },
      },
    }),
  });
  const json = (await res.json()) as any;
  expect(json.result?.message, JSON.stringify(json)).toBeDefined();
  return json.result.message.parts[0].data;
}
