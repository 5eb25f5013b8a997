/**
 * The company agents' MCP servers through the MCP SDK client, against both demo deployments and both protocol
 * versions: initialize (the deployment's own server info), tools/list (knowledge, service area and the
 * procurement lookups the deployment turns on), every tool, failed calls as isError results; the same protocol
 * rules as the data service's /mcp (GET 405, unsupported version 400).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_DEPLOYMENTS } from '../src/agents/demo/demo-agents.js';
import { type AgentHostApp, mcpClient, SLUGS, startAgentHost } from './helpers/agents.js';
import { BASE_URL } from './helpers/test-app.js';

let host: AgentHostApp;
beforeAll(async () => {
  host = await startAgentHost();
});
afterAll(() => host.close());
beforeEach(() => host.clock.advance(61_000));

const TOOLS = [
  'check_service_area',
  'search_knowledge',
  'procurement_research_buyer',
  'procurement_compare_contractsers',
  'procurement_track_opportunities',
];

function structured(result: CallToolResult): any {
  expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
  const [json, readable] = result.content as { type: string; text: string }[];
  expect(JSON.parse(json.text)).toEqual(result.structuredContent);
  expect(readable.text.length).toBeGreaterThan(0);
  return result.structuredContent;
}

describe.each(SLUGS)('deployment %s', (slug) => {
  const spec = DEMO_DEPLOYMENTS.find((d) => d.slug === slug) as (typeof DEMO_DEPLOYMENTS)[number];

  it('initializes with its own server info and lists its tools (read skills offered on MCP)', async () => {
    const client = await mcpClient(host, slug, host.credentials[slug].mcp);
    expect(client.getServerVersion()).toMatchObject({ name: slug, title: spec.name });
    expect(client.getInstructions()).toContain(spec.company.name);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    // A licensed credential sees the same tools: they are all reads.
    const licensed = await mcpClient(host, slug, host.credentials[slug].licensedMcp);
    expect((await licensed.listTools()).tools.map((t) => t.name)).toEqual(TOOLS);
    await client.close();
    await licensed.close();
  });

  it('answers every tool with structuredContent, the JSON as text and a readable summary', async () => {
    const client = await mcpClient(host, slug, host.credentials[slug].mcp);
    const area = structured(
      (await client.callTool({
        name: 'check_service_area',
        arguments: { municipality: spec.service_area.districts[0] },
      })) as CallToolResult,
    );
    expect(area.inside).toBe(true);
    const knowledge = structured(
      (await client.callTool({
        name: 'search_knowledge',
        arguments: { q: spec.knowledge[1].title.split(' ')[0] },
      })) as CallToolResult,
    );
    expect(knowledge.items.map((i: any) => i.id)).toContain(spec.knowledge[1].id);
    host.clock.advance(10_000);
    const buyer = structured(
      (await client.callTool({
        name: 'procurement_research_buyer',
        arguments: { buyer: '500051070', from: '2020-01-01' },
      })) as CallToolResult,
    );
    expect(buyer.totals.citation.rest).toContain(`${BASE_URL}/v1/procurement/contracts?buyer=500051070`);
    const compare = structured(
      (await client.callTool({
        name: 'procurement_compare_contractsers',
        arguments: { municipalities: ['lisboa', 'sintra'], dimension: 'contracts' },
      })) as CallToolResult,
    );
    expect(compare.ranking).toHaveLength(2);
    const notices = structured(
      (await client.callTool({ name: 'procurement_track_opportunities', arguments: { cpv: '4' } })) as CallToolResult,
    );
    expect(Array.isArray(notices.notices)).toBe(true);
    await client.close();
  });

  it('answers failed calls as isError results with the problem document; an unknown tool is -32602', async () => {
    const client = await mcpClient(host, slug, host.credentials[slug].mcp);
    const bad = (await client.callTool({
      name: 'check_service_area',
      arguments: { municipality: 'Atlantis' },
    })) as CallToolResult;
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({
      status: 422,
      errors: [{ field: 'municipality' }],
      instance: `/agents/${slug}/mcp`,
    });
    const unknownBuyer = (await client.callTool({
      name: 'procurement_research_buyer',
      arguments: { buyer: '999999982' },
    })) as CallToolResult;
    expect(unknownBuyer.structuredContent).toMatchObject({ status: 404 });
    // A number whose check digit fails is mistyped, not unknown: 422 naming `buyer`, as the data API answers.
    const mistypedBuyer = (await client.callTool({
      name: 'procurement_research_buyer',
      arguments: { buyer: '999999999' },
    })) as CallToolResult;
    expect(mistypedBuyer.isError).toBe(true);
    expect(mistypedBuyer.structuredContent).toMatchObject({ status: 422, errors: [{ field: 'buyer' }] });
    const backwards = (await client.callTool({
      name: 'procurement_research_buyer',
      arguments: { buyer: '500051070', from: '2024-12-31', to: '2024-01-01' },
    })) as CallToolResult;
    expect(backwards.isError).toBe(true);
    expect(backwards.structuredContent).toMatchObject({ status: 422, errors: [{ field: 'from' }] });
    // Skills not offered on MCP are not tools.
    await expect(client.callTool({ name: 'prepare_action', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });
});

describe('the same protocol rules as /mcp', () => {
  const slug = SLUGS[0];
  const post = (headers: Record<string, string>, body: unknown) =>
    host.app.http.inject({
      method: 'POST',
      url: `/agents/${slug}/mcp`,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${host.credentials[slug].mcp}`,
        ...headers,
      },
      payload: JSON.stringify(body),
    });

  it('GET is 405 with Allow: POST; an unsupported MCP-Protocol-Version is 400 -32022; ping answers {}', async () => {
    const get = await host.app.http.inject({
      method: 'GET',
      url: `/agents/${slug}/mcp`,
      headers: { authorization: `Bearer ${host.credentials[slug].mcp}` },
    });
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const unsupported = await post({ 'mcp-protocol-version': '2024-11-05' }, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json().error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18'] },
    });
    const ping = await post({ 'mcp-protocol-version': '2025-06-18' }, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(ping.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(ping.headers['ratelimit-policy']).toBe('"credential";q=60;w=60, "deployment";q=200;w=60');
  });

  it('negotiates 2025-06-18 and 2025-11-25 and counter-offers the latest', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post(
        {},
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
      );
      expect(res.json().result.protocolVersion).toBe(version);
    }
    const old = await post(
      {},
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
    );
    expect(old.json().result.protocolVersion).toBe('2025-11-25');
  });
});
