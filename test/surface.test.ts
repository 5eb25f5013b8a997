/**
 * Surface snapshots: the public contract of every operation, committed under test/__surface__/ so that a reviewer
 * sees any change of it in the diff.
 *
 * - `operations/<name>.json`, one per operation: its REST path item as the OpenAPI document gives it (route,
 * parameters, responses), and that of its REST-only file route if it has one (`download`), its MCP tool as `tools/list`
 * gives it (name, title, description, inputSchema,
 *   outputSchema, annotations) and its A2A skill as the agent card gives it, with the skill's input schema from
 *   the card's extension.
 * - `service.json`: everything else those three documents say (OpenAPI info, components, tags; the cards without
 *   their skills; the MCP `initialize` result, resource templates and prompts), with the operations named in order.
 * - `agents/<slug>.json`: each demo company deployment's card and tool list.
 *
 * Everything is read from a running app over its channels (the real derived surfaces), and the split is checked to
 * lose nothing: the OpenAPI document, both cards and `tools/list` are put back together from the snapshot files and
 * must equal what was served. Any difference between what the app serves and the committed files fails, as does a
 * missing snapshot or one for an operation that no longer exists.
 *
 * Regenerate after an intended change: `npm run snapshots` (UPDATE_SNAPSHOTS=1), then read the diff.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentHostApp, SLUGS, startAgentHost } from './helpers/agents.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

type Json = Record<string, any>;

const DIR = join(import.meta.dirname, '__surface__');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const MCP_VERSION = '2025-11-25';

let t: TestApp;
let host: AgentHostApp;
beforeAll(async () => {
  t = await startTestApp();
  host = await startAgentHost();
});
afterAll(async () => {
  await t?.close();
  await host?.close();
});

// ---------------------------------------------------------------------------------------------------------
// Reading the surfaces over the channels
// ---------------------------------------------------------------------------------------------------------

async function getJson(app: TestApp['app'], url: string, headers: Record<string, string> = {}): Promise<Json> {
  const res = await app.http.inject({ method: 'GET', url, headers });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return JSON.parse(res.body);
}

async function mcpResult(
  app: TestApp['app'],
  url: string,
  key: string,
  method: string,
  params: Json = {},
): Promise<Json> {
  const res = await app.http.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MCP_VERSION,
    },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(res.statusCode, `${method}: ${res.body}`).toBe(200);
  const body = JSON.parse(res.body);
  expect(body.error, res.body).toBeUndefined();
  return body.result;
}

async function initializeResult(app: TestApp['app'], url: string, key: string): Promise<Json> {
  return mcpResult(app, url, key, 'initialize', {
    protocolVersion: MCP_VERSION,
    capabilities: {},
    clientInfo: { name: 'surface-test', version: '1.0.0' },
  });
}

/** Every tool, following `nextCursor` should the list ever be paged. */
async function allTools(app: TestApp['app'], url: string, key: string): Promise<Json[]> {
  const tools: Json[] = [];
  let cursor: string | undefined;
  do {
    const result = await mcpResult(app, url, key, 'tools/list', cursor ? { cursor } : {});
    tools.push(...result.tools);
    cursor = result.nextCursor;
  } while (cursor);
  return tools;
}

/** The card as fetched, its signatures made stable: each run signs with a key of its own (card-signatures.test.ts). */
async function getCard(app: TestApp['app'], url: string, headers: Record<string, string> = {}): Promise<Json> {
  const card = await getJson(app, url, headers);
  const signatures = card.signatures.map((signature: Json) => {
    const header = JSON.parse(Buffer.from(signature.protected, 'base64url').toString());
    return { protected: { ...header, kid: '(the key id)' }, signature: '(ES256)' };
  });
  return { ...card, signatures };
}

interface Served {
  openapi: Json;
  card: Json;
  legacyCard: Json;
  tools: Json[];
  initialize: Json;
  resourceTemplates: Json[];
  prompts: Json[];
}

async function servedByDataService(): Promise<Served> {
  return {
    openapi: await getJson(t.app, '/v1/openapi.json'),
    card: await getCard(t.app, '/.well-known/agent-card.json', { 'a2a-version': '1.0' }),
    legacyCard: await getCard(t.app, '/.well-known/agent-card.json'),
    // A premium account in the beta group: every operation is callable, so every tool is listed.
    tools: await allTools(t.app, '/mcp', t.keys.beta),
    initialize: await initializeResult(t.app, '/mcp', t.keys.beta),
    resourceTemplates: (await mcpResult(t.app, '/mcp', t.keys.beta, 'resources/templates/list', {})).resourceTemplates,
    prompts: (await mcpResult(t.app, '/mcp', t.keys.beta, 'prompts/list', {})).prompts,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Splitting them into files, and putting them back together
// ---------------------------------------------------------------------------------------------------------

const inputSchemasOf = (card: Json): Json => card.capabilities.extensions[0].params.inputSchemas;

/** A card without its skills and their input schemas: those are in the operation files, named here in order. */
function cardFrame(card: Json): Json {
  const extensions = card.capabilities.extensions.map((e: Json, i: number) =>
    i === 0 ? { ...e, params: { ...e.params, inputSchemas: Object.keys(e.params.inputSchemas) } } : e,
  );
  return { ...card, capabilities: { ...card.capabilities, extensions }, skills: card.skills.map((s: Json) => s.id) };
}

function cardFromFrame(frame: Json, skills: Map<string, Json>, schemas: Map<string, Json>): Json {
  const extensions = frame.capabilities.extensions.map((e: Json, i: number) =>
    i === 0
      ? {
          ...e,
          params: {
            ...e.params,
            inputSchemas: Object.fromEntries(e.params.inputSchemas.map((id: string) => [id, schemas.get(id)])),
          },
        }
      : e,
  );
  return {
    ...frame,
    capabilities: { ...frame.capabilities, extensions },
    skills: frame.skills.map((id: string) => skills.get(id)),
  };
}

/** The operation a path item serves: every operation is one GET route. */
function operationOf(item: Json): string {
  expect(Object.keys(item)).toEqual(['get']);
  return item.get.operationId;
}

/** The operation whose REST-only file route a path item is (`x-download-of`), or undefined. */
function downloadOf(item: Json): string | undefined {
  return item.get?.['x-download-of'];
}

function split(s: Served): Map<string, Json> {
  const files = new Map<string, Json>();
  const all = Object.entries(s.openapi.paths as Json);
  const paths = all.filter(([, item]) => downloadOf(item) === undefined);
  const downloads = new Map(
    all
      .filter(([, item]) => downloadOf(item) !== undefined)
      .map(([path, item]) => [downloadOf(item), { path, ...item }]),
  );
  const names = paths.map(([, item]) => operationOf(item));
  expect([...downloads.keys()].filter((name) => !names.includes(name as string))).toEqual([]);
  // The three channels publish the same operations, in the same order.
  expect(s.tools.map((tool) => tool.name)).toEqual(names);
  expect(s.card.skills.map((skill: Json) => skill.id)).toEqual(names);
  expect(Object.keys(inputSchemasOf(s.card))).toEqual(names);

  paths.forEach(([path, item], i) => {
    const name = names[i];
    files.set(`operations/${name}.json`, {
      operation: name,
      rest: { path, ...item },
      ...(downloads.has(name) && { download: downloads.get(name) }),
      mcp: s.tools[i],
      a2a: { skill: s.card.skills[i], inputSchema: inputSchemasOf(s.card)[name] },
    });
  });
  files.set('service.json', {
    operations: names,
    openapi: { ...s.openapi, paths: Object.keys(s.openapi.paths) },
    agentCard: cardFrame(s.card),
    agentCard03: cardFrame(s.legacyCard),
    mcpInitialize: s.initialize,
    mcpResourceTemplates: s.resourceTemplates,
    mcpPrompts: s.prompts,
  });
  return files;
}

function join_(files: Map<string, Json>): Served {
  const service = files.get('service.json') as Json;
  const ops = (service.operations as string[]).map((name) => files.get(`operations/${name}.json`) as Json);
  const byPath = new Map<string, Json>(
    ops.flatMap((op): [string, Json][] => [
      [op.rest.path, op.rest],
      ...(op.download ? [[op.download.path, op.download] as [string, Json]] : []),
    ]),
  );
  const skills = new Map(ops.map((op) => [op.operation, op.a2a.skill]));
  const schemas = new Map(ops.map((op) => [op.operation, op.a2a.inputSchema]));
  return {
    openapi: {
      ...service.openapi,
      paths: Object.fromEntries(
        (service.openapi.paths as string[]).map((path) => {
          const { path: _, ...item } = byPath.get(path) as Json;
          return [path, item];
        }),
      ),
    },
    card: cardFromFrame(service.agentCard, skills, schemas),
    legacyCard: cardFromFrame(service.agentCard03, skills, schemas),
    tools: ops.map((op) => op.mcp),
    initialize: service.mcpInitialize,
    resourceTemplates: service.mcpResourceTemplates,
    prompts: service.mcpPrompts,
  };
}

async function agentFiles(): Promise<Map<string, Json>> {
  const files = new Map<string, Json>();
  for (const slug of SLUGS) {
    const base = `/agents/${slug}`;
    const key = host.credentials[slug].mcp;
    files.set(`agents/${slug}.json`, {
      agentCard: await getCard(host.app, `${base}/.well-known/agent-card.json`, { 'a2a-version': '1.0' }),
      agentCard03: await getCard(host.app, `${base}/.well-known/agent-card.json`),
      mcpInitialize: await initializeResult(host.app, `${base}/mcp`, key),
      mcpTools: await allTools(host.app, `${base}/mcp`, key),
    });
  }
  return files;
}

// ---------------------------------------------------------------------------------------------------------
// Comparing with (or writing) the committed files
// ---------------------------------------------------------------------------------------------------------

const text = (json: Json) => `${JSON.stringify(json, null, 2)}\n`;

function committedFiles(dir = DIR): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? committedFiles(join(dir, e.name)) : [relative(DIR, join(dir, e.name))],
    );
  } catch {
    return [];
  }
  return names.sort();
}

function check(expected: Map<string, Json>, scope: (file: string) => boolean): void {
  const present = committedFiles().filter(scope);
  if (UPDATE) {
    for (const file of present) if (!expected.has(file)) rmSync(join(DIR, file));
    for (const [file, json] of expected) {
      mkdirSync(dirname(join(DIR, file)), { recursive: true });
      writeFileSync(join(DIR, file), text(json));
    }
    return;
  }
  const missing = [...expected.keys()].filter((file) => !present.includes(file));
  const stale = present.filter((file) => !expected.has(file));
  expect.soft(missing, 'no snapshot for these: run `npm run snapshots` and commit what it writes').toEqual([]);
  expect.soft(stale, 'snapshots of what no longer exists: run `npm run snapshots` (it removes them)').toEqual([]);
  for (const [file, json] of expected) {
    if (!present.includes(file)) continue;
    const committed = readFileSync(join(DIR, file), 'utf8');
    // Parsed, so that the diff vitest prints is by field; then as text, so that formatting is pinned too.
    expect
      .soft(JSON.parse(committed), `${file} differs from the served surface: run \`npm run snapshots\``)
      .toEqual(json);
    expect.soft(committed, `${file} is not as \`npm run snapshots\` writes it`).toBe(text(json));
  }
}

describe('surface snapshots', () => {
  const dataServiceFiles =
    'of the data service: one file per operation, and the rest of the OpenAPI document, cards and MCP server';
  it(dataServiceFiles, async () => {
    const served = await servedByDataService();
    const files = split(served);
    // Nothing is lost in the split: the documents put back together from the files are what the app served.
    expect(join_(files)).toEqual(served);
    expect(files.size).toBe(served.tools.length + 1);
    check(files, (file) => !file.startsWith('agents/'));
  });

  it('of the demo company agents: each deployment’s cards and tools', async () => {
    const files = await agentFiles();
    expect([...files.keys()]).toEqual(SLUGS.map((slug) => `agents/${slug}.json`));
    for (const json of files.values()) {
      expect(json.agentCard.skills.length).toBeGreaterThan(0);
      expect(json.mcpTools.length).toBeGreaterThan(0);
    }
    check(files, (file) => file.startsWith('agents/'));
  });
});
