/**
 * Each channel describes an operation as that channel serves it (docs/api.md, CSV), read through the real clients:
 * MCP tools answer JSON alone, so no tool description speaks of CSV (the aggregate's said "Also as CSV" on every
 * channel); A2A skills that answer CSV say how to ask for it there (`acceptedOutputModes`), never REST's `Accept` or
 * `format`; REST says it once, with its own way to ask.
 */
import { AgentCard } from '@a2a-js/sdk';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPERATIONS } from '../src/operations/index.js';
import { a2aClientAt, fetchVia } from './helpers/a2a-client.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
let address: string;

beforeAll(async () => {
  t = await startTestApp();
  address = await t.app.http.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

it('MCP: no tool description speaks of CSV, which tools do not answer', async () => {
  const mcp = new McpClient({ name: 'channel-descriptions', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${address}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${t.keys.premium}` } },
    }),
  );
  const { tools } = await mcp.listTools();
  await mcp.close();
  expect(tools.map((tool) => tool.name)).toContain('procurement_aggregate');
  expect(tools.filter((tool) => /\bCSV\b/.test(tool.description ?? '')).map((tool) => tool.name)).toEqual([]);
});

it('A2A: a skill that answers CSV says to ask for it with acceptedOutputModes, never with REST’s Accept', async () => {
  const localFetch = fetchVia(address);
  const client = await a2aClientAt(BASE_URL, localFetch);
  const card: any = AgentCard.toJSON(
    await client.getAgentCard({ serviceParameters: { Authorization: `Bearer ${t.keys.premium}` } }),
  );
  for (const skill of card.skills) {
    const csvNotes = skill.description.match(/Also as CSV/g) ?? [];
    expect(csvNotes.length, skill.id).toBe(skill.outputModes.includes('text/csv') ? 1 : 0);
    expect(skill.description, skill.id).not.toMatch(/Accept: text\/csv|format=csv/);
  }
  const aggregate = card.skills.find((s: any) => s.id === 'procurement_aggregate');
  expect(aggregate.description).toContain('`configuration.acceptedOutputModes` to `["text/csv"]`');
  expect(aggregate.description).toContain("The answer's `group_by` and `totals` are in its JSON alone.");
});

it('REST: the aggregate says "Also as CSV" once, with its own way to ask', async () => {
  const openapi = (await t.get('/v1/openapi.json')).json;
  const description: string = openapi.paths['/v1/procurement/aggregate'].get.description;
  expect(description.match(/Also as CSV/g)).toHaveLength(1);
  expect(description).toContain('send `Accept: text/csv` or `format=csv`');
});

it('no operation that takes a foreign tax number calls its `nif` a 9-digit one', () => {
  // The input accepts what the portal publishes for a foreign party (`ESB82612599`): the description must not deny it.
  const foreign = 'ESB82612599';
  const takers = OPERATIONS.filter((op) => {
    const nif = (op.input as any).properties?.nif;
    return nif?.pattern !== undefined && new RegExp(nif.pattern).test(foreign);
  });
  expect(takers.map((op) => op.name)).toEqual(
    expect.arrayContaining(['procurement_entity_profile', 'procurement_entity_red_flags']),
  );
  for (const op of takers) expect(op.description, op.name).not.toMatch(/9-digit/);
});
