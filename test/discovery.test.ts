/**
 * How clients find and present the service (docs/mcp.md, Discovery): the registry's `server.json` at the repository's
 * root, valid against the MCP Registry's schema and saying what the running server says of itself; the remote it
 * names answers MCP with the auth it names; `serverInfo` with title, description, website and an icon the service
 * serves, in the revisions that define them; `bulk_datasets` answers linking each file as a `resource_link`; and
 * the agent card's `iconUrl`.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_PATH, SERVER_IDENTITY } from '../src/channels/mcp/server-facts.js';
import { listen } from './helpers/mcp-tools.js';
import { REGISTRY_SERVER_SCHEMA } from './helpers/registry-server-schema.js';
import { BASE_URL, startTestApp, type TestApp } from './helpers/test-app.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const ROOT = new URL('../', import.meta.url);
const serverJson = JSON.parse(readFileSync(new URL('server.json', ROOT), 'utf8'));
const packageJson = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8'));
const registrySchema = REGISTRY_SERVER_SCHEMA;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A template's `{name}`s replaced by these values, as a registry client fills them in. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-zA-Z_][a-zA-Z0-9_]*)\}/g, (whole, name: string) => values[name] ?? whole);
}

async function rpc(method: string, params: unknown, headers: Record<string, string>, url = MCP_PATH) {
  const res = await t.app.http.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return { status: res.statusCode, headers: res.headers, json: res.body ? JSON.parse(res.body) : undefined };
}

const initialize = (protocolVersion: string, headers = { authorization: `Bearer ${t.keys.premium}` }) =>
  rpc('initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'discovery', version: '1' } }, headers);

describe('server.json', () => {
  it("is valid against the MCP Registry's schema and names the schema it follows", () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const valid = ajv.validate(registrySchema, serverJson);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    expect(serverJson.$schema).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
  });

  it('says what the running server says of itself: version from package.json, title and description', async () => {
    expect(serverJson.version).toBe(packageJson.version);
    const { serverInfo } = (await initialize('2025-11-25')).json.result;
    expect({ title: serverJson.title, description: serverJson.description, version: serverJson.version }).toEqual({
      title: serverInfo.title,
      description: serverInfo.description,
      version: serverInfo.version,
    });
    expect(SERVER_IDENTITY.description.length).toBeLessThanOrEqual(100);
  });

  const namesTheEndpoint =
    "names the MCP endpoint on the deployment's address, answering with a key and challenging for OAuth without";
  it(namesTheEndpoint, async () => {
    const [remote] = serverJson.remotes;
    expect(remote.type).toBe('streamable-http');
    const url = fill(remote.url, { base_url: BASE_URL });
    expect(url).toBe(`${BASE_URL}${MCP_PATH}`);
    const [header] = remote.headers;
    const value = fill(header.value, { api_key: t.keys.premium });

    const path = new URL(url).pathname;
    const withKey = await rpc(
      'initialize',
      { protocolVersion: '2025-11-25', capabilities: {} },
      {
        [header.name]: value,
      },
      path,
    );
    expect(withKey.status).toBe(200);
    expect(withKey.json.result.serverInfo.name).toBe(SERVER_IDENTITY.name);

    // Without the header, an OAuth client is told where to sign in.
    const without = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {} }, {}, path);
    expect(without.status).toBe(401);
    expect(String(without.headers['www-authenticate'])).toMatch(/resource_metadata="[^"]+\/mcp"/);
  });
});

describe('serverInfo', () => {
  it('2025-11-25 and 2026-07-28 carry title, description, website and an icon the service serves', async () => {
    const { serverInfo } = (await initialize('2025-11-25')).json.result;
    expect(serverInfo).toEqual({
      name: 'munidata',
      title: expect.any(String),
      version: packageJson.version,
      description: expect.any(String),
      websiteUrl: `${BASE_URL}/docs`,
      icons: [{ src: `${BASE_URL}/icon.svg`, mimeType: 'image/svg+xml', sizes: ['any'] }],
    });
    const icon = await t.get(new URL(serverInfo.icons[0].src).pathname, { key: null });
    expect(icon.status).toBe(200);
    expect(icon.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(icon.headers['content-security-policy']).toBe("default-src 'none'");
    expect(icon.body).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);

    const discover = await rpc(
      'server/discover',
      {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
      {
        authorization: `Bearer ${t.keys.premium}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
    );
    expect(discover.json.result._meta['io.modelcontextprotocol/serverInfo']).toEqual(serverInfo);
  });

  it('2025-06-18, which defines only name, title and version, gets only those', async () => {
    const { serverInfo } = (await initialize('2025-06-18')).json.result;
    expect(serverInfo).toEqual({ name: 'munidata', title: expect.any(String), version: packageJson.version });
  });
});

describe('bulk_datasets on MCP', () => {
  it('links every file as a resource_link a client can fetch with its key', async () => {
    const client = new Client({ name: 'discovery', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(await listen(t)), {
        requestInit: { headers: { Authorization: `Bearer ${t.keys.premium}` } },
      }),
    );
    try {
      const result: any = await client.callTool({ name: 'bulk_datasets', arguments: { dataset: 'municipalities' } });
      const files = result.structuredContent.items.flatMap((dataset: any) => dataset.formats);
      const links = result.content.filter((block: any) => block.type === 'resource_link');
      expect(files.length).toBeGreaterThan(0);
      expect(links.map((l: any) => [l.uri, l.mimeType, l.size])).toEqual(
        files.map((f: any) => [f.url, f.media_type, f.size_bytes]),
      );
      expect(result.content[0]).toEqual({ type: 'text', text: JSON.stringify(result.structuredContent) });
      for (const link of links) {
        expect(link.name).toMatch(/^municipalities\..*csv$/);
        const file = await t.get(link.uri.replace(BASE_URL, ''));
        expect(file.status).toBe(200);
        expect(Buffer.byteLength(file.body)).toBe(link.size);
      }
    } finally {
      await client.close();
    }
  });
});

describe('the agent card', () => {
  it("names the service's icon", async () => {
    for (const headers of [{ 'a2a-version': '1.0' }, {}] as Record<string, string>[]) {
      const card = await t.get('/.well-known/agent-card.json', { key: null, headers });
      expect(card.json.iconUrl).toBe(`${BASE_URL}/icon.svg`);
    }
  });
});
